/** Ladle bundles its own Vite; it gets only the Tailwind plugin (the app's Vite 8 plugins break it). */
export default {
  stories: 'src/**/*.stories.tsx',
  viteConfig: '.ladle/vite.config.ts',
  addons: { theme: { enabled: true, defaultState: 'light' } },
};
