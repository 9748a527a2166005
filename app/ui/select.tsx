import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';

export type SelectValue = string | number;

/** §3 Select option; an option with nested `options` is a group headed by `label ?? name`. */
export interface SelectOption<V extends SelectValue = SelectValue> {
  value: V;
  name: string;
  icon?: ReactNode;
  disabled?: boolean;
  /** A leaf's secondary text, or a group's heading. */
  label?: string;
  options?: readonly SelectOption<V>[];
}

interface BaseProps<V extends SelectValue> {
  options: readonly SelectOption<V>[];
  onSelect: (value: V) => void;
  /** Translated text above the button; it names the combobox. */
  label?: ReactNode;
  'aria-label'?: string;
  placeholder?: string;
  emptyText?: string;
  /** An i18n key, or true for the default 'This field is required.' */
  error?: string | boolean;
  disabled?: boolean;
  /** Groups collapse and expand; arrow keys open the group of the option they reach. */
  accordion?: boolean;
  /** Defaults to true for a single select, false for a multi-select. */
  closeOnSelect?: boolean;
  id?: string;
  className?: string;
}
export interface SingleSelectProps<V extends SelectValue> extends BaseProps<V> {
  multiple?: false;
  value: V | null | undefined;
}
export interface MultiSelectProps<V extends SelectValue> extends BaseProps<V> {
  multiple: true;
  value: readonly V[];
  /** Choosing an already chosen option emits this instead of onSelect (§2). */
  onDelete: (value: V) => void;
}
export type SelectProps<V extends SelectValue> = SingleSelectProps<V> | MultiSelectProps<V>;

interface Leaf<V extends SelectValue> {
  option: SelectOption<V>;
  id: string;
  group: string | undefined;
}
type Section =
  | { kind: 'leaf'; index: number }
  | { kind: 'group'; key: string; heading: string; indexes: number[] };

function layout<V extends SelectValue>(options: readonly SelectOption<V>[], baseId: string) {
  const leaves: Leaf<V>[] = [];
  const sections: Section[] = [];
  const add = (option: SelectOption<V>, group: string | undefined) => {
    leaves.push({ option, id: `${baseId}-option-${leaves.length}`, group });
    return leaves.length - 1;
  };
  for (const option of options) {
    if (option.options) {
      const key = String(option.value);
      const indexes = option.options.map((child) => add(child, key));
      sections.push({ kind: 'group', key, heading: option.label ?? option.name, indexes });
    } else {
      sections.push({ kind: 'leaf', index: add(option, undefined) });
    }
  }
  return { leaves, sections };
}

const TYPEAHEAD_RESET_MS = 500;

export function Select<V extends SelectValue>(props: SelectProps<V>) {
  const { options, onSelect, label, placeholder, emptyText, error, disabled, accordion } = props;
  const { t } = useTranslation();
  const generated = useId();
  const baseId = props.id ?? generated;
  const ids = {
    label: `${baseId}-label`,
    list: `${baseId}-list`,
    error: `${baseId}-error`,
  };
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const typed = useRef({ text: '', at: 0 });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const { leaves, sections } = useMemo(() => layout(options, baseId), [options, baseId]);
  const chosen = useMemo<ReadonlySet<V>>(
    () => new Set(props.multiple ? props.value : props.value == null ? [] : [props.value]),
    [props.multiple, props.value],
  );
  const closeOnSelect = props.closeOnSelect ?? !props.multiple;
  const enabled = (index: number) => {
    const leaf = leaves[index];
    return leaf !== undefined && !leaf.option.disabled;
  };

  const moveTo = (index: number) => {
    setActive(index);
    const group = leaves[index]?.group;
    if (accordion && group !== undefined && !expanded.has(group)) {
      setExpanded(new Set(expanded).add(group));
    }
  };

  const step = (from: number, direction: 1 | -1): number => {
    for (let index = from + direction; index >= 0 && index < leaves.length; index += direction) {
      if (enabled(index)) return index;
    }
    return from;
  };
  const first = () => step(-1, 1);
  const last = () => step(leaves.length, -1);

  // The keyboard always lands on an option; the mouse only marks the chosen one, so a click
  // leaves accordion groups as they were (the chosen option's group opens).
  const openList = (at: number | 'keyboard' | 'pointer') => {
    const selected = leaves.findIndex(
      (leaf, index) => chosen.has(leaf.option.value) && enabled(index),
    );
    setOpen(true);
    const start =
      typeof at === 'number' ? at : selected >= 0 || at === 'pointer' ? selected : first();
    if (enabled(start)) moveTo(start);
    else setActive(-1);
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const choose = (index: number) => {
    const leaf = leaves[index];
    if (!leaf || leaf.option.disabled) return;
    if (props.multiple && chosen.has(leaf.option.value)) props.onDelete(leaf.option.value);
    else onSelect(leaf.option.value);
    if (closeOnSelect) close();
    buttonRef.current?.focus();
  };

  // Type-ahead: printable keys jump to the first option whose name starts with what was typed.
  const typeAhead = (key: string) => {
    const now = Date.now();
    const text = now - typed.current.at > TYPEAHEAD_RESET_MS ? key : typed.current.text + key;
    typed.current = { text, at: now };
    const needle = text.toLocaleLowerCase();
    const order = leaves.map(
      (_, offset) => (active + (text.length === 1 ? 1 : 0) + offset) % leaves.length,
    );
    const match = order.find(
      (index) =>
        enabled(index) && leaves[index]?.option.name.toLocaleLowerCase().startsWith(needle),
    );
    if (!open) setOpen(true);
    if (match !== undefined) moveTo(match);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const { key } = event;
    const typing = key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (typing && (key !== ' ' || typed.current.text !== '')) {
      if (key === ' ' && Date.now() - typed.current.at > TYPEAHEAD_RESET_MS) {
        typed.current.text = '';
      } else {
        event.preventDefault();
        typeAhead(key);
        return;
      }
    }
    if (!open) {
      if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(key)) openList('keyboard');
      else if (key === 'Home') openList(first());
      else if (key === 'End') openList(last());
      else return;
      event.preventDefault();
      return;
    }
    switch (key) {
      case 'ArrowDown':
        moveTo(active < 0 ? first() : step(active, 1));
        break;
      case 'ArrowUp':
        if (event.altKey) close();
        else moveTo(active < 0 ? last() : step(active, -1));
        break;
      case 'Home':
        moveTo(first());
        break;
      case 'End':
        moveTo(last());
        break;
      case 'Enter':
      case ' ':
        if (active >= 0) choose(active);
        else close();
        break;
      case 'Escape':
        // Only the list closes; a dialog around it stays (see Modal).
        event.stopPropagation();
        close();
        break;
      case 'Tab':
        close();
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) {
        setOpen(false);
        setActive(-1);
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const activeId = open ? leaves[active]?.id : undefined;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const errorKey = error === true ? 'ui.select.required' : error || undefined;
  const shown = leaves.filter((leaf) => chosen.has(leaf.option.value));

  const renderLeaf = (index: number) => {
    const leaf = leaves[index];
    if (!leaf) return null;
    const { option } = leaf;
    const selected = chosen.has(option.value);
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: keys reach options through the combobox (aria-activedescendant)
      <div
        key={leaf.id}
        id={leaf.id}
        role="option"
        aria-selected={selected}
        aria-disabled={option.disabled || undefined}
        tabIndex={-1}
        onClick={() => choose(index)}
        onMouseMove={() => !option.disabled && active !== index && setActive(index)}
        className={`flex h-[30px] cursor-pointer items-center gap-2 rounded-lg px-2 text-sm ${leaf.group === undefined ? '' : 'pl-5'} ${index === active ? 'bg-brand-50' : ''} ${selected ? 'font-medium text-brand-700' : 'text-slate-800'} ${option.disabled ? 'cursor-not-allowed opacity-50' : ''}`}
      >
        {option.icon !== undefined && (
          <span aria-hidden="true" className="flex shrink-0 items-center">
            {option.icon}
          </span>
        )}
        <span className="truncate">{option.name}</span>
        {option.label !== undefined && (
          <span className="ml-auto shrink-0 text-xs text-slate-500">{option.label}</span>
        )}
        {props.multiple && (
          <span
            aria-hidden="true"
            className={`${option.label === undefined ? 'ml-auto' : ''} text-brand-500 ${selected ? '' : 'invisible'}`}
          >
            ✓
          </span>
        )}
      </div>
    );
  };

  const renderSection = (section: Section) => {
    if (section.kind === 'leaf') return renderLeaf(section.index);
    const headingId = `${baseId}-group-${section.key}`;
    const isOpen = !accordion || expanded.has(section.key);
    const toggle = () => {
      const next = new Set(expanded);
      if (!next.delete(section.key)) next.add(section.key);
      setExpanded(next);
    };
    return (
      <div key={headingId} role="presentation" data-group={section.key}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a mouse shortcut; keyboard users open a group by arrowing into it */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above */}
        <div
          id={headingId}
          onClick={accordion ? toggle : undefined}
          data-expanded={accordion ? isOpen : undefined}
          className={`flex h-[30px] items-center gap-1 px-2 text-xs font-semibold tracking-wide text-slate-500 uppercase ${accordion ? 'cursor-pointer hover:text-slate-800' : ''}`}
        >
          {accordion && (
            <span
              aria-hidden="true"
              className={`transition-transform ${isOpen ? 'rotate-90' : ''}`}
            >
              ▸
            </span>
          )}
          {section.heading}
        </div>
        {isOpen && (
          // biome-ignore lint/a11y/useSemanticElements: inside a listbox a group is an ARIA group, not a fieldset
          <div role="group" aria-labelledby={headingId}>
            {section.indexes.map(renderLeaf)}
          </div>
        )}
      </div>
    );
  };

  return (
    <div ref={rootRef} className={`relative flex flex-col gap-1 ${props.className ?? ''}`}>
      {label !== undefined && (
        <span id={ids.label} className="text-sm font-medium text-slate-800">
          {label}
        </span>
      )}
      <button
        ref={buttonRef}
        id={baseId}
        type="button"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={ids.list}
        aria-activedescendant={activeId}
        aria-labelledby={label !== undefined ? ids.label : undefined}
        aria-label={label === undefined ? props['aria-label'] : undefined}
        aria-invalid={errorKey ? true : undefined}
        aria-describedby={errorKey ? ids.error : undefined}
        disabled={disabled}
        onClick={() => (open ? close() : openList('pointer'))}
        onKeyDown={onKeyDown}
        onBlur={close}
        className={`flex min-h-10 w-full items-center gap-2 rounded-lg border bg-white px-3 text-left text-sm focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:bg-slate-50 ${errorKey ? 'border-red-500' : 'border-[#dfe1e6]'}`}
      >
        {shown.length === 0 ? (
          <span className="truncate text-slate-400">
            {placeholder ?? t('ui.select.placeholder')}
          </span>
        ) : (
          <span className="flex min-w-0 items-center gap-2 text-slate-900">
            {!props.multiple && shown[0]?.option.icon !== undefined && (
              <span aria-hidden="true" className="flex shrink-0 items-center">
                {shown[0]?.option.icon}
              </span>
            )}
            <span className="truncate">{shown.map((leaf) => leaf.option.name).join(', ')}</span>
          </span>
        )}
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className={`ml-auto size-4 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}
        >
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
      {open && (
        // Keeps focus on the combobox while the mouse is used inside the list.
        // biome-ignore lint/a11y/noStaticElementInteractions: not interactive itself, only stops the blur
        <div
          className="absolute top-full right-0 left-0 z-30 mt-1 max-h-60 overflow-y-auto rounded-lg border border-[#dfe1e6] bg-white p-1 shadow-lg"
          onMouseDown={(event) => event.preventDefault()}
        >
          {leaves.length === 0 ? (
            <p className="flex h-[30px] items-center px-2 text-sm text-slate-500">
              {emptyText ?? t('ui.select.empty')}
            </p>
          ) : (
            <div
              id={ids.list}
              role="listbox"
              aria-labelledby={label !== undefined ? ids.label : undefined}
              aria-label={label === undefined ? props['aria-label'] : undefined}
              aria-multiselectable={props.multiple || undefined}
              tabIndex={-1}
            >
              {sections.map(renderSection)}
            </div>
          )}
        </div>
      )}
      {errorKey && (
        <p id={ids.error} className="text-xs text-red-600">
          {t(errorKey)}
        </p>
      )}
    </div>
  );
}
