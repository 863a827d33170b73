// The home-page gallery (SPEC.md section 4): 6 photos at a time, the next group every 8 seconds.
export const GALLERY_GROUP_SIZE = 6;
export const GALLERY_ROTATION_MS = 8000;
