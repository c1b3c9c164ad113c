import { useEffect } from 'react';
import { Button, ColorSwatch, Group, Input, Popover, SimpleGrid, Text } from '@mantine/core';
import { IconHighlight } from '@tabler/icons-react';
import { Link, RichTextEditor, useRichTextEditorContext } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import TextAlign from '@tiptap/extension-text-align';
import { BackgroundColor, Color, TextStyle } from '@tiptap/extension-text-style';
import { useTranslation } from 'react-i18next';
import '@mantine/tiptap/styles.css';

/**
 * The notification body (spec section 2): rich text, 200 px high, with undo, redo, bold,
 * italic, strike, underline, alignment, colour and background, and a button per variable of
 * the type that puts `{device.<name>}` where the cursor is.
 */
export function BodyEditor(p: { value: string; onChange: (html: string) => void; variables: readonly string[]; disabled: boolean; error?: string; label: string; required?: boolean }) {
  const { t } = useTranslation();
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link, TextStyle, Color, BackgroundColor, TextAlign.configure({ types: ['heading', 'paragraph'] })],
    content: p.value,
    editable: !p.disabled,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    onUpdate: ({ editor: e }) => p.onChange(e.isEmpty ? '' : e.getHTML()),
  });
  useEffect(() => editor?.setEditable(!p.disabled), [editor, p.disabled]);
  // A value set from outside (a type change strips variables) replaces the content.
  useEffect(() => {
    if (editor && p.value !== (editor.isEmpty ? '' : editor.getHTML())) editor.commands.setContent(p.value, { emitUpdate: false });
  }, [editor, p.value]);

  return (
    <Input.Wrapper label={p.label} required={p.required} error={p.error} data-testid="notification-body">
      <RichTextEditor editor={editor} mt={4} style={{ borderColor: p.error ? 'var(--mantine-color-error)' : undefined }}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.Underline />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.AlignLeft />
            <RichTextEditor.AlignCenter />
            <RichTextEditor.AlignRight />
            <RichTextEditor.AlignJustify />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.ColorPicker colors={COLORS} />
            <RichTextEditor.UnsetColor />
            <BackgroundControl />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={200} />
      </RichTextEditor>
      {p.variables.length > 0 && (
        <Group gap={6} mt={6} data-testid="body-variables">
          <Text size="xs" c="dimmed">
            {t('notification.variables')}
          </Text>
          {p.variables.map((v) => (
            <Button
              key={v}
              size="compact-xs"
              variant="light"
              disabled={p.disabled}
              onClick={() => editor?.chain().focus().insertContent(`{device.${v}}`).run()}
            >
              {t(`notification.variable.${v}`)}
            </Button>
          ))}
        </Group>
      )}
    </Input.Wrapper>
  );
}

const COLORS = ['#25262b', '#868e96', '#fa5252', '#e64980', '#be4bdb', '#4c6ef5', '#15aabf', '#12b886', '#40c057', '#fab005', '#fd7e14'];
const BACKGROUNDS = ['#fff3bf', '#ffe3e3', '#d3f9d8', '#d0ebff', '#f3d9fa', '#e9ecef'];

/** The background colour of the selected text (tiptap's BackgroundColor), or none. */
function BackgroundControl() {
  const { t } = useTranslation();
  const { editor } = useRichTextEditorContext();
  return (
    <Popover position="bottom" withinPortal shadow="md">
      <Popover.Target>
        <RichTextEditor.Control aria-label={t('notification.background')} title={t('notification.background')}>
          <IconHighlight size={16} stroke={1.5} />
        </RichTextEditor.Control>
      </Popover.Target>
      <Popover.Dropdown>
        <SimpleGrid cols={BACKGROUNDS.length + 1} spacing={6}>
          {BACKGROUNDS.map((c) => (
            <ColorSwatch key={c} color={c} size={20} component="button" type="button" aria-label={c} onClick={() => editor?.chain().focus().setBackgroundColor(c).run()} style={{ cursor: 'pointer' }} />
          ))}
          <Button size="compact-xs" variant="subtle" onClick={() => editor?.chain().focus().unsetBackgroundColor().run()}>
            {t('notification.noBackground')}
          </Button>
        </SimpleGrid>
      </Popover.Dropdown>
    </Popover>
  );
}
