import { LOGO_CLASS, LogoMark } from './logo-mark.tsx';
import { RouteLink } from './route-link.tsx';

/** §2 "The logo and the landing header link to /{locale}/." */
export function LogoLink() {
  return (
    <RouteLink name="home" className={LOGO_CLASS}>
      <LogoMark />
    </RouteLink>
  );
}
