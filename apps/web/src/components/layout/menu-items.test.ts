import { describe, expect, it } from 'vitest';
import { SCREEN_ROUTES } from '../../app/route-table.ts';
import { isMenuItemActive, MENU_ITEMS, menuItem } from './menu-items.ts';

describe('menu items', () => {
  // A list screen opens its rows and Create at its entry's item route (ListScreen): it must be the route table's item screen.
  it('name, each, the item route the route table gives their section', () => {
    for (const entry of MENU_ITEMS) {
      const itemRoutes = SCREEN_ROUTES.filter((r) => r.section === entry.key && r.parent).map((r) => `/${r.path.split('/')[1]}`);
      expect([entry.key, entry.item ? [entry.item] : []]).toEqual([entry.key, itemRoutes]);
    }
  });

  it('light up on their list and item pages only', () => {
    const queues = menuItem('queues');
    expect(['/queues', '/queue/7', '/queue/-1'].map((p) => isMenuItemActive(queues, p))).toEqual([true, true, true]);
    expect(['/queuesx', '/networks', '/'].map((p) => isMenuItemActive(queues, p))).toEqual([false, false, false]);
    expect(isMenuItemActive(menuItem('consumables'), '/consumables')).toBe(true);
  });
});
