// Types of scripts/long-figures.mjs (a plain script test-long.mjs runs without a build).
export const FIGURES_PATH: string
export const DOC_PATH: string
export const BEGIN: string
export const END: string
export const FULL_SCALE: Record<string, number>
export function gather(records: Array<Record<string, unknown>>): Record<string, unknown>
export function render(figures: unknown): string
export function withFigures(doc: string, text: string): string
export function figuresIn(doc: string): string | null
export const CODE_UNDER_TEST: string[]
export function buildOf(root: string): { commit: string; clean: boolean }
export function changedSince(root: string, commit: string): string[]
