/**
 * The main window's views the first view does not show, each a chunk of its own loaded when it
 * opens (App.svelte): the page's start evaluates the grid's code only (cold start bench, profile
 * by chunk). uPlot touches matchMedia and canvas at import, one more reason the chart waits.
 */
export const loadDetail = () => import('./chart/DetailView.svelte')
export const loadAlerts = () => import('./alerts/AlertsPanel.svelte')
export const loadSettings = () => import('./settings/SettingsPanel.svelte')
export const loadShortcuts = () => import('./components/ShortcutsDialog.svelte')
export const loadWall = () => import('./wall/WallPane.svelte')
export const loadHeatmap = () => import('./heatmap/HeatmapPane.svelte')

/** The panels a trader opens first, fetched in an idle moment once the desk is up. */
export function preloadPanels(): Promise<unknown> {
  return Promise.all([loadAlerts(), loadSettings(), loadShortcuts()])
}
