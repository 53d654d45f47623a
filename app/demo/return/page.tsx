import { notFound } from "next/navigation";
import { getConfig } from "@/lib/config";

/**
 * GET /demo/return?paymentId=...&statusCode=...: the sandbox demo merchant's landing page,
 * where its redirect URL points. A real merchant confirms the status with Check before
 * trusting it; this page only shows what arrived. Production has no demo merchant: 404.
 */
export default async function DemoReturnPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  if (!getConfig().isSandbox) notFound();
  const query = await searchParams;
  const paymentId = typeof query.paymentId === "string" ? query.paymentId : null;
  const statusCode = typeof query.statusCode === "string" ? query.statusCode : null;
  return (
    <div className="flex min-h-dvh items-start justify-center bg-stone-100 px-4 py-10 text-stone-900">
      <main className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200">
        <p className="text-sm font-semibold tracking-wide text-orange-700 uppercase">Demo Shop</p>
        <h1 className="mt-1 text-2xl font-bold">Back at the shop</h1>
        <p className="mt-2 text-sm text-stone-600">
          The gateway sent the buyer here. The shop now confirms the status server-side with Check.
        </p>
        <dl className="mt-6 grid gap-3 text-sm">
          <div>
            <dt className="font-medium text-stone-600">paymentId</dt>
            <dd className="font-mono break-all" data-testid="demo-payment-id">
              {paymentId ?? "(none)"}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-stone-600">statusCode</dt>
            <dd className="font-mono" data-testid="demo-status-code">
              {statusCode ?? "(none)"}
            </dd>
          </div>
        </dl>
      </main>
    </div>
  );
}
