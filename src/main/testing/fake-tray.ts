import { FakeEmitter } from './fake-emitter'

/** Electron's Tray and Notification as main uses them: specs read what main set on each. */
export class FakeTray extends FakeEmitter {
  static instances: FakeTray[] = []
  tooltip: string | null = null
  title: string | null = null
  menu: { template: MenuTemplateItem[] } | null = null
  tooltipWrites = 0
  menuWrites = 0
  titleWrites = 0
  destroyed = false
  constructor(readonly image: unknown) {
    super()
    FakeTray.instances.push(this)
  }
  setToolTip(text: string): void {
    this.tooltip = text
    this.tooltipWrites++
  }
  setTitle(text: string): void {
    this.title = text
    this.titleWrites++
  }
  setContextMenu(menu: { template: MenuTemplateItem[] }): void {
    this.menu = menu
    this.menuWrites++
  }
  /** Never called by Tickdesk after construction: a tray image per update leaks (electron#20850). */
  setImage(): void {
    throw new Error('Tray.setImage called: the tray icon is set once')
  }
  destroy(): void {
    this.destroyed = true
  }
}

export interface MenuTemplateItem {
  label?: string
  role?: string
  type?: string
  enabled?: boolean
  checked?: boolean
  accelerator?: string
  submenu?: MenuTemplateItem[]
  click?: (item: { checked: boolean }) => void
}

export class FakeNotification extends FakeEmitter {
  static instances: FakeNotification[] = []
  static supported = true
  static isSupported(): boolean {
    return FakeNotification.supported
  }
  shown = false
  constructor(readonly options: { title: string; body: string; silent?: boolean }) {
    super()
    FakeNotification.instances.push(this)
  }
  show(): void {
    this.shown = true
  }
}
