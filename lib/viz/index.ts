/** Figures (Plotly JSON), tables (arquero), notebook display and offline export. */
export { Figure, parseFigure, seriesStyle, lineChart, barChart, histogram, bandChart, binEdges, binCounts, type Axes, type Series } from "./figure.js";
export { toPNG, toHTML, checkPage, type PageCheck, figureDiv, plotlyScript, bundleFor, BASIC_TRACE_TYPES, type PlotlyBundle, closeRenderer, sharedBrowser, escapeHtml, scriptJson, CHROMIUM_ARGS, type PngOptions } from "./render.js";
export { aq, tableText, tableHTML, fromRows, formatNumber, type Table } from "./table.js";
export { show, showTable, displayBundle, inNotebook, flushFigures } from "./notebook.js";
export { sessionHTML, sessionPage, showSession, type LayerHint, type SessionViewOptions } from "./session.js";
