/**
 * The form's top level arranged as its form configuration's `layout` says: nested vertical and horizontal
 * groups of the fields it names, with their widths. Only the named fields are drawn (as the guides define);
 * hidden fields stay in the form. Groups wrap on a narrow screen.
 */
import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import type { CSSProperties, ReactElement } from 'react';
import { cssSize, type LayoutNode } from './app-config';
import styles from './forms.module.css';

function sizeStyle(node: LayoutNode): CSSProperties {
  const width = cssSize(node.width);
  return {
    ...(width ? { flex: `0 1 ${width}`, width } : {}),
    ...(cssSize(node['min-width']) ? { minWidth: cssSize(node['min-width']) } : {}),
    ...(cssSize(node['max-width']) ? { maxWidth: cssSize(node['max-width']) } : {}),
  };
}

export function LayoutTemplate(props: ObjectFieldTemplateProps) {
  const layout = props.uiSchema?.['ui:options']?.layout as LayoutNode | undefined;
  const byName = new Map(props.properties.map((p) => [p.name, p]));
  if (!layout) return <>{props.properties.map((p) => p.content)}</>;
  const draw = (node: LayoutNode, path: string, depth: number): ReactElement | null => {
    if (depth > 20) return null;
    if (typeof node.field === 'string') {
      const property = byName.get(node.field);
      if (!property) return null;
      return (
        <div key={path} className={styles.layoutItem} style={sizeStyle(node)}>
          {property.content}
        </div>
      );
    }
    const items = Array.isArray(node.items) ? node.items : [];
    return (
      <div
        key={path}
        className={node.orientation === 'horizontal' ? styles.layoutRow : styles.layoutColumn}
        style={sizeStyle(node)}
        data-orientation={node.orientation ?? 'vertical'}
      >
        {items.map((item, i) => draw(item, `${path}.${i}`, depth + 1))}
      </div>
    );
  };
  return (
    <>
      {draw(layout, 'layout', 0)}
      {props.properties.filter((p) => p.hidden).map((p) => p.content)}
    </>
  );
}
