/** A screen whose content arrives with a later issue: its title, nothing else. */
export function TitlePage({ title }: { title: string }) {
  return <h1 className="text-2xl font-semibold">{title}</h1>;
}
