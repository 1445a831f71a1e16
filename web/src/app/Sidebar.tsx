/** The left side of the workbench: the property tree, the apps, the command reference and the secrets, one tab at a time. */
import { memo, useState } from 'react';
import { AppsPanel } from '../apps';
import { PropertyExplorer } from '../properties';
import { CommandReference } from '../reference';
import { SecretsView } from '../secrets';

type Tab = 'properties' | 'apps' | 'reference' | 'secrets';

const TABS: { tab: Tab; label: string }[] = [
  { tab: 'properties', label: 'Properties' },
  { tab: 'apps', label: 'Apps' },
  { tab: 'reference', label: 'Reference' },
  { tab: 'secrets', label: 'Secrets' },
];

/** Memoised: typing in the editor re-renders the workbench, and the tree or the reference need not follow. */
export const Sidebar = memo(function Sidebar({ width }: { width: number }) {
  const [tab, setTab] = useState<Tab>('properties');
  return (
    <aside className="wb-sidebar" aria-label="Sidebar" style={{ width }}>
      <div className="wb-tabs" role="tablist">
        {TABS.map(({ tab: t, label }) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={t === tab}
            className="wb-tab"
            onClick={() => setTab(t)}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="wb-sidebar-body" role="tabpanel">
        {tab === 'properties' ? (
          <PropertyExplorer />
        ) : tab === 'apps' ? (
          <AppsPanel />
        ) : tab === 'reference' ? (
          <CommandReference />
        ) : (
          <SecretsView />
        )}
      </div>
    </aside>
  );
});
