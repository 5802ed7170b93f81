import { contextBridge, ipcRenderer } from 'electron'
import { createTickdeskApi } from './tickdesk-api'

// Sandboxed preload (ARCHITECTURE: src/preload): exposes the bridge contract and nothing more.
contextBridge.exposeInMainWorld('tickdesk', createTickdeskApi(ipcRenderer))
