// A QR payment's wallet charge as the rest of the gateway uses it. Loading this module loads
// what settling it needs: the charge's provider-operation handlers (wallet-charge.ts) and the
// receiver of the in-process sandbox wallet's callbacks (wallet-qr-callback.ts).
import "./wallet-charge";

export { beginQrCharge, findQrCharge, openQrRequest, qrContentOf, settleQrCharge, withdrawExpiredQrCharge, withdrawUnusedQrRequest, QR_CALLBACK_PATH } from "./wallet-qr-charge";
export { handleQrCallback, receiveQrCallback, type QrCallbackStatus } from "./wallet-qr-callback";
