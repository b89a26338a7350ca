"""Writes a tslab notebook from a list of (kind, source) cells: python3 scripts/make_notebook.py SPEC.json OUT.ipynb"""
import json, sys

spec = json.load(open(sys.argv[1]))
nb = {
    "cells": [
        {"cell_type": k, "metadata": {}, "source": s.strip("\n").splitlines(keepends=True), **({"outputs": [], "execution_count": None} if k == "code" else {})}
        for k, s in spec
    ],
    "metadata": {
        "kernelspec": {"name": "composer-lab", "display_name": "TypeScript (composer-lab)", "language": "typescript"},
        "language_info": {"name": "typescript", "file_extension": ".ts", "mimetype": "text/typescript"},
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}
json.dump(nb, open(sys.argv[2], "w"), indent=1)
open(sys.argv[2], "a").write("\n")
