import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { isStaff } from '#shared/roles.ts';
import { signOut } from '../session/sign-out.ts';
import { Icon } from './icon.tsx';
import { RouteLink, useRoutePath } from './route-link.tsx';

/** §2 The name, or the username prefixed with @ when there is no name. */
export function displayName(user: Pick<AuthUser, 'name' | 'username'>): string {
  return user.name?.trim() ? user.name : `@${user.username}`;
}

/** §2 The photo is an optional path on the site origin; anything else is not shown. */
export function photoUrl(photo: string | null): string | null {
  return photo?.startsWith('/') && !photo.startsWith('//') ? photo : null;
}

// §6: staff get their profile settings; customers profile, notifications, apps and help.
const ITEMS = {
  staff: [['avatar.admin_profile', 'admin.account.profile']],
  customer: [
    ['avatar.profile', 'account.profile'],
    ['avatar.notifications', 'account.notifications'],
    ['avatar.download', 'download'],
    ['avatar.help', 'home'],
  ],
} as const;

/** `compact` (phones): the picture alone, the name for screen readers only, so it fits. */
export function AvatarMenu({ user, compact = false }: { user: AuthUser; compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signinPath = useRoutePath('signin');
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const name = displayName(user);
  const photo = photoUrl(user.photo);
  const items = isStaff(user.role) ? ITEMS.staff : ITEMS.customer;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const entries = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') close();
    else if (event.key === 'ArrowDown') entries[(index + 1) % entries.length]?.focus();
    else if (event.key === 'ArrowUp') entries.at((index - 1) % entries.length)?.focus();
    else if (event.key === 'Home') entries[0]?.focus();
    else if (event.key === 'End') entries.at(-1)?.focus();
    else return;
    event.preventDefault();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard handling for the menu inside
    <div className="relative" ref={root} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        data-testid="avatar-button"
        onClick={() => setOpen((value) => !value)}
      >
        {photo ? (
          <img src={photo} alt="" className="size-8 rounded-full object-cover" />
        ) : (
          <span className="flex size-8 items-center justify-center rounded-full bg-brand-50 font-semibold text-brand-700">
            {(user.name?.trim() || user.username).charAt(0).toUpperCase()}
          </span>
        )}
        <span className={compact ? 'sr-only' : 'max-w-40 truncate'}>{name}</span>
        {!compact && <Icon name="chevron" className="size-4" />}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={name}
          className="absolute right-0 z-30 mt-2 w-56 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {items.map(([label, route]) => (
            <RouteLink
              key={label}
              name={route}
              role="menuitem"
              className="block px-4 py-2 text-sm text-slate-700 hover:bg-slate-50 focus:bg-slate-100 focus:outline-none"
              onClick={() => setOpen(false)}
            >
              {t(label)}
            </RouteLink>
          ))}
          <button
            type="button"
            role="menuitem"
            className="flex w-full items-center gap-2 px-4 py-2 text-left text-sm text-red-700 hover:bg-red-50 focus:bg-red-50 focus:outline-none"
            onClick={() => {
              setOpen(false);
              void signOut(() => navigate(signinPath));
            }}
          >
            <Icon name="logout" className="size-4" />
            {t('avatar.sign_out')}
          </button>
        </div>
      )}
    </div>
  );
}
