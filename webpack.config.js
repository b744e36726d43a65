// Builds the web UI (www/) into www/dist/: `npm run build:www`.
//
// The wasm comes from the npm package's bundler build in pkg/ (`npm run build`
// first): www/node_modules/evidence-validator is a committed symlink to
// ../../pkg, so `import ... from 'evidence-validator'` in www/src resolves the
// way it does for a user who installed the package, through pkg/package.json's
// `exports` map (webpack sets `browser`/`import`/`webpack`: the bundler build).
//
// No loaders or plugins from the registry: index.html and style.css are
// emitted by the small plugin below, the samples are bundled as text
// (`?raw` imports), so the page needs nothing but www/dist/ (works offline).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';

const root = path.dirname(fileURLToPath(import.meta.url));
const www = path.join(root, 'www');

/** Emits www/index.html (with the entry's script tags) and www/style.css. */
class StaticPagePlugin {
  apply(compiler) {
    const name = 'StaticPagePlugin';
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const htmlFile = path.join(www, 'index.html');
          const cssFile = path.join(www, 'style.css');
          compilation.fileDependencies.add(htmlFile);
          compilation.fileDependencies.add(cssFile);
          const css = fs.readFileSync(cssFile);
          const cssName = `style.${webpack.util.createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
          compilation.emitAsset(cssName, new webpack.sources.RawSource(css));
          const scripts = [...compilation.entrypoints.get('main').getFiles()]
            .filter((f) => f.endsWith('.js'))
            .map((f) => `<script defer src="${f}"></script>`)
            .join('\n    ');
          const html = fs.readFileSync(htmlFile, 'utf8')
            .replace('<!-- STYLES -->', `<link rel="stylesheet" href="${cssName}">`)
            .replace('<!-- SCRIPTS -->', scripts);
          if (html.includes('<!-- STYLES -->') || html.includes('<!-- SCRIPTS -->') || !html.includes(cssName)) {
            compilation.errors.push(new webpack.WebpackError('www/index.html needs the <!-- STYLES --> and <!-- SCRIPTS --> placeholders'));
          }
          compilation.emitAsset('index.html', new webpack.sources.RawSource(html));
        },
      );
    });
  }
}

export default (env, argv) => {
  if (!fs.existsSync(path.join(root, 'pkg', 'package.json'))) {
    throw new Error('pkg/ is not built: run `npm run build` before `npm run build:www`');
  }
  const mode = argv.mode ?? 'production';
  return {
    mode,
    context: root,
    target: 'web',
    entry: { main: './www/src/main.js' },
    output: {
      path: path.join(www, 'dist'),
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      webassemblyModuleFilename: '[hash].wasm',
      // the .wasm (www/src/library.js's `new URL('evidence-validator/web/wasm',
      // import.meta.url)`, compiled once for the page and its worker) by name
      assetModuleFilename: '[name].[contenthash:8][ext]',
      publicPath: 'auto',
      clean: true,
    },
    experiments: { asyncWebAssembly: true },
    module: {
      rules: [
        // `import text from './x.md?raw'`: the file's text as a string.
        { resourceQuery: /raw/, type: 'asset/source' },
      ],
    },
    resolve: { symlinks: true },
    // The wasm module is ~1 MB; it is loaded once, asynchronously.
    performance: { hints: false },
    devtool: mode === 'development' ? 'source-map' : false,
    plugins: [new StaticPagePlugin()],
    stats: 'errors-warnings',
  };
};
