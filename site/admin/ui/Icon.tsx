import { ICONS, type IconName } from '../../components/icons.ts';
import { Icon as SvgIcon } from '../../islands/Icon.tsx';

/** The site's icons in React, by name: decorative unless given a label. */
export function Icon({ name, label, className }: { name: IconName; label?: string; className?: string }) {
  return <SvgIcon svg={ICONS[name]} label={label} className={className} />;
}
