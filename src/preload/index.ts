import { contextBridge, ipcRenderer } from 'electron'
import { createTickdeskApi } from './tickdesk-api'

// Sandboxed preload (architecture: Layers): exposes the bridge contract and nothing more.
contextBridge.exposeInMainWorld('tickdesk', createTickdeskApi(ipcRenderer))
