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

/** Tasks the alert form may take to be drawn once its chunk is in. */
const FORM_WAITS = 50

/**
 * The new-alert form's level field, once the alerts panel's chunk is in and drawn: the form
 * exists a few tasks after the import resolves, so a focus right after it finds nothing.
 */
export async function newAlertLevel(): Promise<HTMLInputElement | null> {
  const level = (): HTMLInputElement | null =>
    document.querySelector<HTMLInputElement>('form[aria-label="New alert"] [name="value"]')
  await loadAlerts()
  for (let i = 0; i < FORM_WAITS && level() === null; i++)
    await new Promise((resolve) => setTimeout(resolve, 0))
  return level()
}
