import type { CommandContext } from '../../../commands/define-command';
import { curlLines, printApi } from '../../../commands/print-api';
import type { Registry } from '../../../commands/registry';

/** The calls as a fenced block the command line and notices render. */
export function curlBlock(text: string): string {
  return `\`\`\`sh\n${text}\n\`\`\``;
}

/**
 * "Copy as curl" from the palette: the command's calls as curl lines on the clipboard, and in the
 * notice (so the person sees what was copied, or can copy it by hand if the browser refuses).
 */
export async function copyApiNotice(registry: Registry, id: string, input: Record<string, unknown>, ctx: CommandContext): Promise<{ text: string; tone: 'ok' }> {
  const title = registry.get(id)?.title ?? id;
  const printed = await printApi(registry, id, input, ctx);
  if (!printed.calls.length) return { text: `**${title}** changes nothing through the API here: there is no call to copy.`, tone: 'ok' };
  const text = curlLines(printed, window.location.origin);
  let copied = true;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    copied = false;
  }
  const calls = `${printed.calls.length} call${printed.calls.length === 1 ? '' : 's'}`;
  const head = copied ? `Copied **${title}** as curl (${calls}); set \`OPSDECK_TOKEN\` to a personal API token.` : `The browser refused the clipboard; **${title}** as curl (${calls}):`;
  return { text: `${head}\n\n${curlBlock(text)}`, tone: 'ok' };
}
