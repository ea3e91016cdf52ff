// Card tools of face A (/v2/id_card, /v2/phone, /v2/card): domain logic and data loading only.
export { type CardTools, type CardToolsData, createCardTools, loadCardTools } from './card-tools.js';
export type {
  BankCardCheck,
  BankCardTypeCode,
  CardProblem,
  CardSchemeCode,
  CheckOutcome,
  IdCardCheck,
  IdCardRegion,
  PhoneCheck,
  PhoneRegion,
  PhoneType,
  Sex,
} from './card-tools.types.js';
export { maskNumber } from './check-outcome.js';
export { convertLegacyIdCard, idCardCheckCharacter } from './id-card.checker.js';
export { luhnValid } from './bank-card.checker.js';
