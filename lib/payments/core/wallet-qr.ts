// A QR payment's wallet charge as the rest of the gateway uses it, with the receiver of the
// in-process sandbox wallet's callbacks (wallet-qr-callback.ts).
export { beginQrCharge, findQrCharge, openQrRequest, qrContentOf, withdrawUnusedQrRequest, QR_CALLBACK_PATH } from "./wallet-qr-charge";
export { settleQrCharge, withdrawExpiredQrCharge } from "./settle-qr-charge";
export { handleQrCallback, receiveQrCallback, type QrCallbackStatus } from "./wallet-qr-callback";
