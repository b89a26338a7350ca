/** Figures (Plotly JSON), tables (arquero), notebook display and offline export. */
export { Figure, parseFigure, lineChart, barChart, histogram, bandChart } from "./figure.js";
export { toPNG, toHTML, checkPage, type PageCheck, figureDiv, plotlyScript, closeRenderer, sharedBrowser, escapeHtml, scriptJson, CHROMIUM_ARGS, type PngOptions } from "./render.js";
export { aq, tableText, tableHTML, fromRows, type Table } from "./table.js";
export { show, showTable, displayBundle, inNotebook } from "./notebook.js";
