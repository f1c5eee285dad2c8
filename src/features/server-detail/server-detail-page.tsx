import { TitlePage } from '../shell/title-page';

export function ServerDetailPage() {
  return <TitlePage title="Server" />;
}
