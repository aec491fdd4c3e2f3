// The text-to-image lab's series and point keys, shared by its plan (text-to-image.ts), its analysis and its
// deliverable: a U-Net step series per side and type ("gpu-fp16", points "gpu-fp16@4" by batch), and a text-encoder
// series per side and type ("gpu-text-fp16", one point, one image's prompts).
export const TEXT_TO_IMAGE_LAB = 'text-to-image';

export type Side = 'cpu' | 'gpu';
export type TypeName = 'fp32' | 'fp16';

export const unetSeries = (side: Side, dtype: TypeName): `${Side}-${TypeName}` => `${side}-${dtype}`;
export const textSeries = (side: Side, dtype: TypeName): `${Side}-text-${TypeName}` => `${side}-text-${dtype}`;
export const stepKey = (side: Side, dtype: TypeName, batch: number): string => `${unetSeries(side, dtype)}@${batch}`;
