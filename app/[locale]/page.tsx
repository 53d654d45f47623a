export default function HomePage() {
  return <main>Payment gateway</main>;
}
