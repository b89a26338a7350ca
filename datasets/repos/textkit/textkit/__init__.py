"""Small text utilities: slugs, wrapping, tokens, plain-text tables and word statistics."""
from .slug import slugify, unique_slug
from .wrap import wrap, fill, shorten
from .tokens import words, sentences, ngrams
from .table import render_table
from .stats import word_freq, top_words, reading_time

__all__ = ["slugify", "unique_slug", "wrap", "fill", "shorten", "words", "sentences", "ngrams", "render_table", "word_freq", "top_words", "reading_time"]
