import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';

export interface SortableListProps<T> {
  items: readonly T[];
  idOf: (item: T) => number;
  /** Names an item in handles, buttons and announcements. */
  nameOf: (item: T) => string;
  /** Translated; names the list. */
  label: string;
  /** Puts the item at `to` (an index of the list as it is now). */
  onMove: (id: number, to: number) => void;
  /** Says something in the page's live region. */
  announce: (message: string) => void;
  renderItem: (item: T, index: number) => ReactNode;
  /** The message keys of the list's words (help, handle and button labels, announcements). */
  texts: SortableTexts;
  disabled?: boolean;
}

/** Keys of the words a sortable list says; each gets `name`, `position` and `count`. */
export interface SortableTexts {
  help: string;
  handle: string;
  moveUp: string;
  moveDown: string;
  picked: string;
  moved: string;
  dropped: string;
  canceled: string;
}

type Part = 'handle' | 'up' | 'down';

/**
 * An ordered list staff reorder three ways: dragging an item's handle (pointer events, so
 * mouse, pen and touch alike), the handle from the keyboard (Space or Enter picks up, arrows,
 * Home and End move, Space or Enter drops, Escape puts it back), and a move up and a move
 * down button per item. Every move is announced for screen readers.
 */
export function SortableList<T>({
  items,
  idOf,
  nameOf,
  label,
  onMove,
  announce,
  renderItem,
  texts,
  disabled = false,
}: SortableListProps<T>) {
  const { t } = useTranslation();
  const helpId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const controls = useRef(new Map<string, HTMLElement>());
  // A move re-renders the list and may move the focused node, which loses focus: the control
  // that moved gets it back once the list is drawn anew.
  const refocus = useRef<{ id: number; part: Part } | null>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const [picked, setPicked] = useState<{ id: number; from: number } | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);

  const count = items.length;
  const indexOf = (id: number) => itemsRef.current.findIndex((item) => idOf(item) === id);
  const nameAt = (id: number) => {
    const item = itemsRef.current.find((candidate) => idOf(candidate) === id);
    return item === undefined ? '' : nameOf(item);
  };
  const say = (key: string, id: number, position: number) =>
    announce(t(key, { name: nameAt(id), position: position + 1, count }));

  useLayoutEffect(() => {
    const wanted = refocus.current;
    if (!wanted) return;
    refocus.current = null;
    const at = indexOf(wanted.id);
    // A button that can no longer move the item that way hands focus to its handle.
    const blocked =
      (wanted.part === 'up' && at === 0) || (wanted.part === 'down' && at === count - 1);
    const part = blocked ? 'handle' : wanted.part;
    controls.current.get(`${wanted.id}:${part}`)?.focus();
  });

  const move = (id: number, to: number, part: Part) => {
    const from = indexOf(id);
    const target = Math.max(0, Math.min(count - 1, to));
    if (from < 0 || target === from) return false;
    refocus.current = { id, part };
    onMove(id, target);
    say(texts.moved, id, target);
    return true;
  };

  const drop = (id: number) => {
    setPicked(null);
    say(texts.dropped, id, indexOf(id));
  };

  const onHandleKey = (event: KeyboardEvent<HTMLButtonElement>, id: number) => {
    if (disabled) return;
    const { key } = event;
    const at = indexOf(id);
    if (picked?.id !== id) {
      if (key !== ' ' && key !== 'Enter') return;
      event.preventDefault();
      setPicked({ id, from: at });
      say(texts.picked, id, at);
      return;
    }
    if (key === 'ArrowUp' || key === 'ArrowLeft') move(id, at - 1, 'handle');
    else if (key === 'ArrowDown' || key === 'ArrowRight') move(id, at + 1, 'handle');
    else if (key === 'Home') move(id, 0, 'handle');
    else if (key === 'End') move(id, count - 1, 'handle');
    else if (key === ' ' || key === 'Enter') drop(id);
    else if (key === 'Escape') {
      setPicked(null);
      if (at !== picked.from) {
        refocus.current = { id, part: 'handle' };
        onMove(id, picked.from);
      }
      say(texts.canceled, id, picked.from);
    } else {
      // Tab and the rest leave the item where it is now.
      if (key === 'Tab') drop(id);
      return;
    }
    event.preventDefault();
  };

  // Dragging: the pointer is followed on the window, not captured by the handle, because a
  // reorder may move the handle's node and a moved node loses its capture.
  const dragEnd = useRef<(() => void) | null>(null);
  useEffect(() => () => dragEnd.current?.(), []);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>, id: number) => {
    if (disabled || event.button !== 0 || !event.isPrimary) return;
    event.preventDefault();
    const from = indexOf(id);
    setDragging(id);
    setPicked(null);
    const follow = (moveEvent: globalThis.PointerEvent) => {
      const rows = Array.from(listRef.current?.children ?? []);
      const at = indexOf(id);
      const y = moveEvent.clientY;
      const middle = (index: number) => {
        const rect = rows[index]?.getBoundingClientRect();
        return rect ? rect.top + rect.height / 2 : Number.NaN;
      };
      // Past the middle of a neighbour is far enough: rows of unequal height do not swap back.
      let to = at;
      for (let index = at + 1; index < rows.length; index += 1) {
        if (y >= middle(index)) to = index;
      }
      if (to === at) {
        for (let index = at - 1; index >= 0; index -= 1) {
          if (y <= middle(index)) to = index;
        }
      }
      if (to !== at) onMove(id, to);
    };
    const finish = (canceled: boolean) => {
      window.removeEventListener('pointermove', follow);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('keydown', onEscape, true);
      dragEnd.current = null;
      setDragging(null);
      if (canceled) {
        if (indexOf(id) !== from) onMove(id, from);
        say(texts.canceled, id, from);
      } else if (indexOf(id) !== from) {
        say(texts.dropped, id, indexOf(id));
      }
    };
    const up = () => finish(false);
    const cancel = () => finish(true);
    const onEscape = (keyEvent: globalThis.KeyboardEvent) => {
      if (keyEvent.key !== 'Escape') return;
      keyEvent.preventDefault();
      finish(true);
    };
    window.addEventListener('pointermove', follow);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('keydown', onEscape, true);
    dragEnd.current = () => finish(true);
  };

  const keep = (id: number, part: Part) => (node: HTMLElement | null) => {
    if (node) controls.current.set(`${id}:${part}`, node);
    else controls.current.delete(`${id}:${part}`);
  };

  return (
    <>
      <p id={helpId} className="sr-only">
        {t(texts.help)}
      </p>
      <ol ref={listRef} aria-label={label} className="flex flex-col gap-3">
        {items.map((item, index) => {
          const id = idOf(item);
          const name = nameOf(item);
          const lifted = picked?.id === id || dragging === id;
          return (
            <li
              key={id}
              data-testid={`sortable-${id}`}
              className={`flex items-stretch gap-3 rounded-2xl border bg-white p-3 shadow-sm transition-shadow ${lifted ? 'border-brand-500 shadow-lg ring-2 ring-brand-500/40' : 'border-slate-200'} ${dragging === id ? 'opacity-80' : ''}`}
            >
              <div className="flex flex-col items-center gap-1">
                <span className="text-xs font-semibold text-slate-500 tabular-nums">
                  {index + 1}
                </span>
                <button
                  type="button"
                  ref={keep(id, 'handle')}
                  disabled={disabled}
                  aria-label={t(texts.handle, { name })}
                  aria-describedby={helpId}
                  aria-pressed={picked?.id === id}
                  onKeyDown={(event) => onHandleKey(event, id)}
                  onBlur={() => {
                    // Focus leaving the picked item (a click elsewhere) drops it; a move's own
                    // brief loss of focus does not.
                    if (picked?.id === id && refocus.current === null) drop(id);
                  }}
                  onPointerDown={(event) => onPointerDown(event, id)}
                  className={`flex min-h-10 w-9 flex-1 touch-none items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-50 ${dragging === id ? 'cursor-grabbing' : 'cursor-grab'}`}
                >
                  <GripIcon />
                </button>
              </div>
              <div className="min-w-0 flex-1">{renderItem(item, index)}</div>
              <div className="flex flex-col justify-center gap-1">
                <MoveButton
                  ref={keep(id, 'up')}
                  label={t(texts.moveUp, { name })}
                  disabled={disabled || index === 0}
                  onClick={() => move(id, index - 1, 'up')}
                  direction="up"
                />
                <MoveButton
                  ref={keep(id, 'down')}
                  label={t(texts.moveDown, { name })}
                  disabled={disabled || index === count - 1}
                  onClick={() => move(id, index + 1, 'down')}
                  direction="down"
                />
              </div>
            </li>
          );
        })}
      </ol>
    </>
  );
}

function MoveButton({
  label,
  disabled,
  onClick,
  direction,
  ref,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  direction: 'up' | 'down';
  ref: (node: HTMLButtonElement | null) => void;
}) {
  return (
    <button
      type="button"
      ref={ref}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="flex size-9 items-center justify-center rounded-lg border border-[#dfe1e6] bg-white text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-40"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
        <path d={direction === 'up' ? 'M10 5l5 6H5l5-6z' : 'M10 15l-5-6h10l-5 6z'} />
      </svg>
    </button>
  );
}

function GripIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
      <circle cx="7" cy="5" r="1.5" />
      <circle cx="13" cy="5" r="1.5" />
      <circle cx="7" cy="10" r="1.5" />
      <circle cx="13" cy="10" r="1.5" />
      <circle cx="7" cy="15" r="1.5" />
      <circle cx="13" cy="15" r="1.5" />
    </svg>
  );
}
