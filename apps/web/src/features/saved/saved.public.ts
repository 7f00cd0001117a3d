// What other features use of saved messages: the message menus' save toggle and the live refresh.
export { refreshSaved, useSavedMessages } from './saved.queries.ts';
