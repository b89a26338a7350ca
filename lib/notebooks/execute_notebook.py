"""Executes one notebook with nbclient, cell by cell, stopping at the first failing cell.

Usage: execute_notebook.py SRC DST KERNEL TIMEOUT_S CWD
Prints one JSON object on stdout; always writes the (partly) executed notebook to DST.
tslab reports a failing cell only on its stderr stream (ename/evalue empty), so the failing
cell's stderr is collected and returned.
tslab sends no execute_input, so the executed copy would carry no execution counts: each code
cell gets its ordinal. Figures add their PNG in the background (composer-lab viz.show); after
the last cell a hidden cell waits for them so that the saved copy carries every PNG.
"""
import json
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError


def stream_text(cell, name):
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream" and o.get("name") == name)


def error_text(cell):
    parts = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            parts.append(f"{o.get('ename', '')}: {o.get('evalue', '')}".strip(": "))
    return "\n".join(p for p in parts if p)


FLUSH_FIGURES = 'await Promise.resolve((globalThis as any)[Symbol.for("composer-lab.viz.flushFigures")]?.());'


def flush_figures(client, nb):
    """Runs the flush in a temporary cell; PNG updates then land in the cells that showed the figures.
    Returns what the flush printed on stderr (a PNG that could not be rendered says why there)."""
    cell = nbformat.v4.new_code_cell(FLUSH_FIGURES)
    nb.cells.append(cell)
    try:
        client.execute_cell(cell, len(nb.cells) - 1)
    finally:
        nb.cells.pop()
    return stream_text(cell, "stderr")


def main():
    src, dst, kernel, timeout, cwd = sys.argv[1:6]
    nb = nbformat.read(src, as_version=4)
    client = NotebookClient(nb, kernel_name=kernel, timeout=int(timeout), resources={"metadata": {"path": cwd}})
    t0 = time.time()
    result = {"ok": True, "cells": len(nb.cells), "executed": 0, "failed": None}
    code_index = 0
    try:
        with client.setup_kernel():
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                code_index += 1
                try:
                    client.execute_cell(cell, index, execution_count=code_index)
                    result["executed"] += 1
                except (CellExecutionError, CellTimeoutError, DeadKernelError) as e:
                    result["ok"] = False
                    lines = str(e).strip().splitlines()
                    fallback = type(e).__name__ + (": " + lines[-1] if lines else "")
                    result["failed"] = {
                        "index": index,
                        "code_cell": code_index,
                        "source": cell.source,
                        "stderr": stream_text(cell, "stderr"),
                        "error": error_text(cell) or fallback,
                    }
                    break
            if result["ok"]:
                result["flush_stderr"] = flush_figures(client, nb)
    except Exception as e:  # kernel failed to start, bad notebook JSON, ...
        result["ok"] = False
        result["failed"] = {"index": -1, "code_cell": 0, "source": "", "stderr": "", "error": f"{type(e).__name__}: {e}"}
    result["seconds"] = round(time.time() - t0, 3)
    nbformat.write(nb, dst)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
