import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';

const titlePage = (title: string) => {
  const Component = lazyRouteComponent(() => import('../features/shell/title-page'), 'TitlePage');
  return () => <Component title={title} />;
};

/** A declared route whose screen is not built (yet): it shows its title (SPEC §2 route table). */
export const titleRoute = <P extends AnyRoute>(parent: P, path: string, title: string) =>
  createRoute({ getParentRoute: () => parent, path, component: titlePage(title) });
