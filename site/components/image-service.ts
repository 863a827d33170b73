// Astro's sharp service, naming each optimised photo by what it shows rather than where the
// build read it. Astro hashes a transform's properties, src included, into the file's name and
// its cache entry; a stored photo's src is its full address on the API host (images.ts), port
// and all. So the same demo photo built by `npm start` (:8787), the tests' stack (:8790) and a
// self-hosted server (:3000) was encoded again for each, ~30 s of a first build on two cores.
// `photoKey` is the photo's own address (/media/<key>, never reused for other bytes: an upload
// gets a new key) or a built-in photo's path; it stands in for src in the hash.
import sharpService from 'astro/assets/services/sharp';
import type { LocalImageService } from 'astro';

const service: LocalImageService = {
  ...sharpService,
  propertiesToHash: ['photoKey', 'width', 'height', 'format', 'quality', 'fit', 'position', 'background'],
};

export default service;
