import { useSyncExternalStore } from 'react';

// The window width, re-read at most once per animation frame while resizing.
function subscribe(onChange: () => void): () => void {
  let frame = 0;
  const listener = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(onChange);
  };
  window.addEventListener('resize', listener);
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener('resize', listener);
  };
}

export function useViewportWidth(): number {
  return useSyncExternalStore(subscribe, () => window.innerWidth);
}
