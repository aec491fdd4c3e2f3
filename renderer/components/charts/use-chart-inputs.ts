// What the chart functions need from the app: the palette of the effective theme and the catalog's words. Both are
// reactive, so a chart follows a change of theme or language.
import type { ComputedRef } from 'vue';
import { computed } from 'vue';
import { useI18n } from 'vue-i18n';

import type { ChartInputs } from '../../../main/common/pure/charts/chart-common.ts';
import { chartTheme } from '../../../main/common/pure/charts/palette.ts';
import type { Translate } from '../../../main/common/pure/charts/text.ts';
import { useThemeStore } from '../../stores/theme.ts';

export function useTranslate(): ComputedRef<Translate> {
  const { t, locale } = useI18n();
  // Read the locale so that anything built with this function is rebuilt when it changes.
  return computed<Translate>(() => {
    void locale.value;
    return (key, named = {}, plural) => (plural === undefined ? t(key, named) : t(key, named, plural));
  });
}

export function useChartInputs(): ComputedRef<ChartInputs> {
  const theme = useThemeStore();
  const translate = useTranslate();
  return computed(() => ({ theme: chartTheme(theme.effective), t: translate.value }));
}
