import type { CSSProperties, ReactNode } from 'react';

// The Markdown staff write for a list mail, turned into React elements (whose text React
// escapes) and into plain text. No HTML string is ever built from the source, so raw HTML in
// it shows as text and nothing can smuggle a tag or an attribute in: safe by construction,
// like the CMS's sanitized pipeline (DESIGN, CMS text) but without a dependency. What mail
// needs, nothing more: headings, paragraphs with line breaks, bullet and numbered lists,
// **bold**, *italic*, `code` and [links](https://…) to http(s) or mailto addresses only.

type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] };

const HEADING = /^(#{1,3})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/;

/** Blocks of the source: blank lines end a paragraph, list or heading. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length > 0) {
      blocks.push({ kind: 'paragraph', content: parseLines(paragraph) });
      paragraph = [];
    }
    if (list) {
      blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
      list = null;
    }
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = (heading[1] ?? '#').length as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, content: parseInline(heading[2] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const ordered = numbered !== null;
      if (paragraph.length > 0 || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(item[1] ?? '');
      continue;
    }
    if (list) {
      // A line under an item, indented or not, continues it (a lazy continuation).
      const last = list.items.length - 1;
      list.items[last] = `${list.items[last]} ${line.trim()}`;
      continue;
    }
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

function parseLines(lines: string[]): Inline[] {
  return lines.flatMap((line, index) =>
    index === 0 ? parseInline(line) : [{ kind: 'break' } as const, ...parseInline(line)],
  );
}

const SAFE_HREF = /^(https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+)$/i;

/** Spans of one line. Unmatched markers stay as the characters they are. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const push = (node: Inline) => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const code = /^`([^`]+)`/.exec(rest);
    if (code) {
      push({ kind: 'code', text: code[1] ?? '' });
      i += code[0].length;
      continue;
    }
    const strong = /^(\*\*|__)(?=\S)(.+?)(?<=\S)\1/.exec(rest);
    if (strong) {
      push({ kind: 'strong', children: parseInline(strong[2] ?? '') });
      i += strong[0].length;
      continue;
    }
    const em = /^([*_])(?=\S)(.+?)(?<=\S)\1/.exec(rest);
    if (em) {
      push({ kind: 'em', children: parseInline(em[2] ?? '') });
      i += em[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
    if (link && SAFE_HREF.test(link[2] ?? '')) {
      push({ kind: 'link', href: link[2] ?? '', children: parseInline(link[1] ?? '') });
      i += link[0].length;
      continue;
    }
    plain += text[i];
    i += 1;
  }
  if (plain) out.push({ kind: 'text', text: plain });
  return out;
}

// ——— As React (the HTML part) ———

export interface MarkdownStyles {
  paragraph: CSSProperties;
  heading: CSSProperties;
  link: CSSProperties;
  code: CSSProperties;
}

function inlineNodes(nodes: Inline[], styles: MarkdownStyles): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${node.kind}-${index}`;
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'break':
        return <br key={key} />;
      case 'code':
        return (
          <code key={key} style={styles.code}>
            {node.text}
          </code>
        );
      case 'strong':
        return <strong key={key}>{inlineNodes(node.children, styles)}</strong>;
      case 'em':
        return <em key={key}>{inlineNodes(node.children, styles)}</em>;
      case 'link':
        return (
          <a key={key} href={node.href} style={styles.link}>
            {inlineNodes(node.children, styles)}
          </a>
        );
      default:
        return null;
    }
  });
}

const HEADING_SIZE = { 1: 22, 2: 19, 3: 17 } as const;

export function MarkdownBody({ blocks, styles }: { blocks: Block[]; styles: MarkdownStyles }) {
  return (
    <>
      {blocks.map((block, index) => {
        const key = `${block.kind}-${index}`;
        if (block.kind === 'heading') {
          const Tag = `h${block.level + 1}` as 'h2' | 'h3' | 'h4';
          return (
            <Tag key={key} style={{ ...styles.heading, fontSize: HEADING_SIZE[block.level] }}>
              {inlineNodes(block.content, styles)}
            </Tag>
          );
        }
        if (block.kind === 'list') {
          const List = block.ordered ? 'ol' : 'ul';
          return (
            <List key={key} style={{ ...styles.paragraph, paddingLeft: 24 }}>
              {block.items.map((item, itemIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place
                <li key={itemIndex}>{inlineNodes(item, styles)}</li>
              ))}
            </List>
          );
        }
        return (
          <p key={key} style={styles.paragraph}>
            {inlineNodes(block.content, styles)}
          </p>
        );
      })}
    </>
  );
}

// ——— As plain text (the text part) ———

function inlineText(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.kind) {
        case 'text':
        case 'code':
          return node.text;
        case 'break':
          return '\n';
        case 'strong':
        case 'em':
          return inlineText(node.children);
        case 'link': {
          const label = inlineText(node.children);
          const target = node.href.replace(/^mailto:/i, '');
          return label === target ? target : `${label} (${node.href})`;
        }
        default:
          return '';
      }
    })
    .join('');
}

export function markdownText(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'list') {
        return block.items
          .map((item, index) => `${block.ordered ? `${index + 1}.` : '-'} ${inlineText(item)}`)
          .join('\n');
      }
      return inlineText(block.content);
    })
    .join('\n\n');
}
