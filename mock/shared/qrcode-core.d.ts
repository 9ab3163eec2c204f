// Types for qrcode's pure core, which mock/shared/qr-png.ts imports alone: @types/qrcode types only the package's main
// entry, and this file exports that entry's `create`.
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}
