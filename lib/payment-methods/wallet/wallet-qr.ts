// A QR payment's wallet charge as the wallet's own files use it (the charge's record and its
// withdrawal stay in lib/payments/core, whose expiry reaches them), with the receiver of the
// wallet's callbacks (wallet-qr-callback.ts).
export {
  beginQrCharge,
  findQrCharge,
  openQrRequest,
  qrContentOf,
  withdrawUnusedQrRequest,
  QR_CALLBACK_PATH,
} from "./wallet-qr-charge";
export { settleQrCharge, withdrawExpiredQrCharge } from "./settle-qr-charge";
export { handleQrCallback, receiveQrCallback, type QrCallbackStatus } from "./wallet-qr-callback";
