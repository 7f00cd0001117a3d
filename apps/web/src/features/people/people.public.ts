// The people feature's public entry: other features import only what is listed here (biome.json).
export { Avatar } from './avatar.tsx';
export { chatWithUrl, personQuery } from './people.queries.ts';
export { PeopleSearch } from './people-search.tsx';
export { PersonButton, PersonCard, PersonCards } from './person-card.tsx';
