import type { PhotoKind } from './photos.ts';
import type { CabinInput } from '../../schema/cabins.ts';
import type { SettingsUpdate } from '../../schema/settings.ts';

// Demo content for the local site: enough for two catalogue pages, the home page's
// «Найти домик», a moderation queue and a rotating gallery.

type DemoCabin = Omit<CabinInput, 'images'> & { photos: PhotoKind[] };

const A = {
  wifi: 'Wi-Fi', ac: 'Кондиционер', terrace: 'Терраса', bbq: 'Барбекю', parking: 'Парковка',
  washer: 'Стиральная машина', kitchen: 'Кухня', tv: 'Телевизор', fridge: 'Холодильник', micro: 'Микроволновка',
};

export const DEMO_CABINS: DemoCabin[] = [
  {
    name: 'Домик «Бриз» у самой воды',
    description:
      'Деревянный домик в первой линии: из окна спальни видно море, а до воды ровно сорок шагов. Просторная терраса с плетёной мебелью, мангал и гамак в тени акаций. Идеально для пары или семьи с ребёнком.',
    pricePerNight: 6500, location: 'Каспийск, ул. Приморская', distanceToSea: '1 мин',
    bedrooms: 1, bathrooms: 1, maxGuests: 3, featured: true, active: true,
    amenities: [A.wifi, A.ac, A.terrace, A.bbq, A.parking, A.kitchen, A.fridge],
    photos: ['cabin-exterior', 'terrace', 'interior', 'sea'],
  },
  {
    name: 'Апартаменты «Лазурь» с видом на залив',
    description:
      'Светлые апартаменты на пятом этаже нового дома с панорамными окнами на залив. Полностью оборудованная кухня, стиральная машина, быстрый Wi-Fi для удалённой работы и закрытая парковка.',
    pricePerNight: 5200, location: 'Махачкала, Приморский район', distanceToSea: '5 мин',
    bedrooms: 2, bathrooms: 1, maxGuests: 4, featured: true, active: true,
    amenities: [A.wifi, A.ac, A.washer, A.kitchen, A.tv, A.fridge, A.micro, A.parking],
    photos: ['sea', 'interior', 'interior', 'sunset'],
  },
  {
    name: 'Семейный дом «Сосны»',
    description:
      'Двухэтажный дом для большой компании среди сосен: три спальни, гостиная с камином, большая кухня и двор с беседкой. До песчаного пляжа — тропинка через рощу.',
    pricePerNight: 12500, location: 'Сулак', distanceToSea: '7 мин',
    bedrooms: 3, bathrooms: 2, maxGuests: 8, featured: false, active: true,
    amenities: [A.wifi, A.terrace, A.bbq, A.parking, A.washer, A.kitchen, A.tv, A.fridge],
    photos: ['cabin-exterior', 'interior', 'terrace', 'beach'],
  },
  {
    name: 'Гостевой домик «Чайка»',
    description:
      'Небольшой уютный домик для двоих с собственным двориком. Утренний кофе на веранде под крик чаек, вечерние прогулки по набережной.',
    pricePerNight: 3800, location: 'Избербаш', distanceToSea: '3 мин',
    bedrooms: 1, bathrooms: 1, maxGuests: 2, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.terrace, A.fridge, A.micro],
    photos: ['cabin-exterior', 'interior', 'sea'],
  },
  {
    name: 'Вилла «Каспийская жемчужина»',
    description:
      'Просторная вилла с видом на море, четыре спальни с собственными ванными, летняя кухня и зона барбекю. Для тех, кто хочет тишины и простора.',
    pricePerNight: 18000, location: 'Каспийск, посёлок Кемпинг', distanceToSea: '2 мин',
    bedrooms: 4, bathrooms: 3, maxGuests: 10, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.terrace, A.bbq, A.parking, A.washer, A.kitchen, A.tv, A.fridge, A.micro],
    photos: ['sunset', 'cabin-exterior', 'interior', 'terrace', 'beach'],
  },
  {
    name: 'Студия «Маяк»',
    description:
      'Компактная студия в двух шагах от маяка и городского пляжа. Всё необходимое для короткого отдыха: кухня-ниша, кондиционер, удобная кровать.',
    pricePerNight: 3200, location: 'Махачкала, центр', distanceToSea: '6 мин',
    bedrooms: 1, bathrooms: 1, maxGuests: 2, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.kitchen, A.tv],
    photos: ['interior', 'sea'],
  },
  {
    name: 'Домик «Дюна»',
    description:
      'Домик на песчаных дюнах с видом на бесконечный пляж. Здесь слышно только море и ветер. Рядом прокат сапов и велосипедов.',
    pricePerNight: 5600, location: 'Манас', distanceToSea: '2 мин',
    bedrooms: 2, bathrooms: 1, maxGuests: 4, featured: false, active: true,
    amenities: [A.terrace, A.bbq, A.parking, A.kitchen, A.fridge],
    photos: ['beach', 'cabin-exterior', 'interior'],
  },
  {
    name: 'Апартаменты «Набережная»',
    description:
      'Современная квартира на набережной: кафе, прогулочная зона и пляж прямо у подъезда. Две изолированные комнаты и балкон с видом на закат.',
    pricePerNight: 6100, location: 'Дербент, Приморская набережная', distanceToSea: '4 мин',
    bedrooms: 2, bathrooms: 1, maxGuests: 5, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.washer, A.kitchen, A.tv, A.fridge, A.micro],
    photos: ['sunset', 'interior', 'interior'],
  },
  {
    name: 'Эко-домик «Камыш»',
    description:
      'Домик из натуральных материалов на берегу тихой лагуны. Рыбалка, наблюдение за птицами, ужины у костра. Без телевизора, зато со звёздным небом.',
    pricePerNight: 4400, location: 'Сулакская лагуна', distanceToSea: '1 мин',
    bedrooms: 1, bathrooms: 1, maxGuests: 3, featured: false, active: true,
    amenities: [A.terrace, A.bbq, A.parking, A.fridge],
    photos: ['sea', 'cabin-exterior', 'terrace'],
  },
  {
    name: 'Дом «Старый Дербент»',
    description:
      'Дом с внутренним двориком в пешей доступности от крепости Нарын-Кала и моря. Три спальни, большая кухня и гостиная для вечерних чаепитий.',
    pricePerNight: 9800, location: 'Дербент', distanceToSea: '12 мин',
    bedrooms: 3, bathrooms: 2, maxGuests: 7, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.parking, A.washer, A.kitchen, A.tv, A.fridge, A.micro],
    photos: ['cabin-exterior', 'interior', 'terrace'],
  },
  {
    name: 'Домик «Рассвет»',
    description:
      'Домик на восточном склоне, где солнце встаёт прямо из моря. Веранда на восток, гамак и качели для детей во дворе.',
    pricePerNight: 4900, location: 'Избербаш, посёлок Приморский', distanceToSea: '5 мин',
    bedrooms: 2, bathrooms: 1, maxGuests: 4, featured: false, active: true,
    amenities: [A.wifi, A.terrace, A.bbq, A.parking, A.kitchen, A.fridge],
    photos: ['sunset', 'cabin-exterior', 'interior'],
  },
  {
    name: 'Апартаменты «Парус»',
    description:
      'Апартаменты в жилом комплексе с охраняемой территорией, бассейном и детской площадкой. Море — через дорогу.',
    pricePerNight: 5900, location: 'Каспийск, мкр. Кемпинг', distanceToSea: '3 мин',
    bedrooms: 2, bathrooms: 2, maxGuests: 5, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.parking, A.washer, A.kitchen, A.tv, A.fridge, A.micro],
    photos: ['interior', 'sea', 'interior'],
  },
  {
    name: 'Коттедж «Горизонт»',
    description:
      'Коттедж на холме с панорамой моря и гор. Большая терраса для ужинов на закате, собственная парковка на две машины.',
    pricePerNight: 11200, location: 'Манаскент', distanceToSea: '10 мин',
    bedrooms: 3, bathrooms: 2, maxGuests: 6, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.terrace, A.bbq, A.parking, A.kitchen, A.tv, A.fridge],
    photos: ['sunset', 'terrace', 'interior', 'cabin-exterior'],
  },
  {
    name: 'Домик «Ракушка»',
    description:
      'Простой и чистый домик для тех, кто весь день проводит на пляже. Летний душ, навес для машины и мангал.',
    pricePerNight: 2900, location: 'Сулак', distanceToSea: '4 мин',
    bedrooms: 1, bathrooms: 1, maxGuests: 3, featured: false, active: true,
    amenities: [A.bbq, A.parking, A.fridge],
    photos: ['cabin-exterior', 'beach'],
  },
  {
    name: 'Апартаменты «Волна»',
    description:
      'Уютная квартира с морским интерьером в спокойном районе. Рядом рынок со свежими фруктами и рыбой.',
    pricePerNight: 4200, location: 'Махачкала, Редукторный', distanceToSea: '8 мин',
    bedrooms: 1, bathrooms: 1, maxGuests: 3, featured: false, active: true,
    amenities: [A.wifi, A.ac, A.washer, A.kitchen, A.tv, A.fridge],
    photos: ['interior', 'sea'],
  },
  {
    name: 'Дом «Тихая гавань»',
    description:
      'Закрыт на ремонт до следующего сезона: обновляем террасу и кухню.',
    pricePerNight: 7500, location: 'Каспийск', distanceToSea: '6 мин',
    bedrooms: 2, bathrooms: 1, maxGuests: 5, featured: false, active: false,
    amenities: [A.wifi, A.terrace, A.kitchen],
    photos: ['cabin-exterior', 'interior'],
  },
];

export const DEMO_GALLERY: PhotoKind[] = ['sea', 'sunset', 'beach', 'terrace', 'cabin-exterior', 'sea', 'sunset', 'beach'];

type DemoReview = { name: string; email: string; rating: number; comment: string; approved: boolean; daysAgo: number };

export const DEMO_REVIEWS: DemoReview[] = [
  { name: 'Анна', email: 'anna.k@example.ru', rating: 5, approved: true, daysAgo: 3,
    comment: 'Отдыхали в «Бризе» всей семьёй неделю. Море в двух шагах, в домике чисто и уютно, хозяйка встретила с домашним вареньем. Дети не хотели уезжать! Обязательно вернёмся следующим летом.' },
  { name: 'Дмитрий', email: 'dmitry@example.ru', rating: 5, approved: true, daysAgo: 9,
    comment: 'Отличные апартаменты, вид на залив просто невероятный. Работал удалённо: интернет быстрый, ни одного обрыва.' },
  { name: 'Марина', email: 'marina.s@example.ru', rating: 4, approved: true, daysAgo: 14,
    comment: 'Всё понравилось, особенно терраса и мангал. Единственное — в жару кондиционер в спальне не справлялся, но хозяин сразу принёс вентилятор. Пляж чистый, народу немного.' },
  { name: 'Руслан', email: 'ruslan@example.ru', rating: 5, approved: true, daysAgo: 20,
    comment: 'Брали дом «Сосны» на компанию из восьми человек. Места хватило всем, беседка во дворе — лучшее место для вечерних посиделок. Рекомендую!' },
  { name: 'Елена', email: 'elena.v@example.ru', rating: 5, approved: true, daysAgo: 26,
    comment: 'Тихое и красивое место. Встречали рассветы на веранде с кофе, вечером гуляли вдоль моря. Бронировали через WhatsApp — ответили за пять минут.' },
  { name: 'Игорь', email: 'igor@example.ru', rating: 4, approved: true, daysAgo: 33,
    comment: 'Хорошая студия для короткой поездки. Центр рядом, до пляжа быстро. Парковка во дворе бывает занята вечером, но место всегда находилось.' },
  { name: 'Саида', email: 'saida@example.ru', rating: 5, approved: true, daysAgo: 41,
    comment: 'Вилла превзошла ожидания: огромная, светлая, у каждой спальни своя ванная. Отмечали юбилей мамы — всё прошло идеально. Спасибо за гостеприимство и помощь с организацией! Отдельное спасибо за подсказки, куда съездить: были в Дербенте и на Сулакском каньоне.' },
  { name: 'Павел', email: 'pavel@example.ru', rating: 5, approved: true, daysAgo: 52,
    comment: 'Лучший отпуск за последние годы. Чистое море, тишина, вкусная еда на рынке рядом.' },
  { name: 'Ольга', email: 'olga.m@example.ru', rating: 4, approved: true, daysAgo: 60,
    comment: 'Уютный домик, всё необходимое есть. Хотелось бы чуть больше посуды на кухне, а в остальном — прекрасно.' },
  { name: 'Тимур', email: 'timur@example.ru', rating: 5, approved: true, daysAgo: 75,
    comment: 'Ездим сюда уже третий год. Всегда чисто, всегда приветливо, и цены честные.' },
  { name: 'Наталья', email: 'natalia@example.ru', rating: 5, approved: true, daysAgo: 90,
    comment: 'Эко-домик у лагуны — находка для любителей природы. Видели фламинго! Вечером у костра слушали шум камыша. Никакого телевизора и не нужно.' },
  { name: 'Алексей', email: 'alexey@example.ru', rating: 3, approved: true, daysAgo: 120,
    comment: 'Место красивое, но дорога до домика неасфальтированная, после дождя пришлось постараться. Сам домик хороший.' },
  { name: 'Вика', email: 'vika@example.ru', rating: 5, approved: false, daysAgo: 1,
    comment: 'Только вернулись из «Чайки» — очень понравилось! Спасибо за тёплый приём.' },
  { name: 'Сергей', email: 'sergey@example.ru', rating: 4, approved: false, daysAgo: 2,
    comment: 'Хорошие апартаменты, чисто, всё работает. До моря чуть дальше, чем казалось по описанию.' },
  { name: 'Зарема', email: 'zarema@example.ru', rating: 5, approved: false, daysAgo: 4,
    comment: 'Прекрасный отдых с детьми, безопасный двор и пляж с пологим входом в воду.' },
];

export const DEMO_SETTINGS: SettingsUpdate = {
  siteName: 'Каспий',
  phone: '+7 (928) 555-12-34',
  email: 'info@kaspiy-dom.ru',
  address: 'Республика Дагестан, Каспийск, ул. Приморская, 12',
  footerPhone: '+7 (928) 555-12-34',
  footerEmail: 'info@kaspiy-dom.ru',
  footerAddress: 'Республика Дагестан, Каспийск, ул. Приморская, 12',
  footerDescription:
    'Уютные домики и апартаменты на берегу Каспийского моря. Тишина, чистый воздух и море в нескольких минутах от порога.',
  mapEmbedCode:
    '<iframe src="https://yandex.ru/map-widget/v1/?ll=47.6386%2C42.8816&z=13" width="560" height="400" frameborder="0" allowfullscreen="true"></iframe>',
  heroTitle: 'Отдых у Каспийского моря',
  heroSubtitle: 'Домики и апартаменты у самой воды: просыпайтесь под шум волн и бронируйте в пару касаний',
  checkInTime: '14:00',
  checkOutTime: '12:00',
  // A sample entry of the register of classified accommodation (the demo's, not a real one).
  registryNumber: 'С052024000123',
  registryUrl: 'https://tourism.gov.ru/',
};
