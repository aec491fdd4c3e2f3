// A message from main (a reason the host gave, as main/common/pure/host-reasons.ts words it) in the language shown, its
// numbers in that language's style: the app's catalogs hold every message a message can name.
import { computed } from 'vue';
import type { ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';

import { isLocale } from '../../main/common/pure/locale.ts';
import { renderMessage } from '../../main/common/pure/message.ts';
import type { Message } from '../../main/common/pure/message.ts';

export function useMessageText(): ComputedRef<(m: Message) => string> {
  const { t, locale } = useI18n();
  return computed(() => {
    const language = isLocale(locale.value) ? locale.value : 'en';
    return (m) => renderMessage(m, (key, named) => t(key, named), language);
  });
}
