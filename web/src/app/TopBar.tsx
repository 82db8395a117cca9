import { Bell } from '../notifications/Bell';

/** The right side of the top bar: global controls (the notifications bell). */
export function TopBarSlot() {
  return (
    <div className="topbar-right">
      <Bell />
    </div>
  );
}
