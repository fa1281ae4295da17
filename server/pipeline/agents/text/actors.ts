/**
 * Who acts in a brief: which nouns name people or groups ("receptionists", "the back office"), and how a
 * group is named as a role ("Back office member"), mid-sentence ("the back office"), and with a verb that
 * agrees ("the back office reconciles ...").
 */
import { joinList } from "./lists";
import { lowerFirst, normalizeSpace, sentenceCase } from "./normalize";
import { IRREGULAR_SINGULARS, pluralNoun, singular } from "./nouns";
import { bare, thirdPersonPhrase } from "./verbs";

const PERSON_WORDS = new Set(
  (
    "user users customer customers client clients admin admins administrator administrators merchant merchants driver drivers rider riders " +
    "patient patients doctor doctors nurse nurses student students teacher teachers employee employees manager managers staff guest guests " +
    "member members buyer buyers seller sellers vendor vendors visitor visitors operator operators agent agents analyst analysts reviewer " +
    "reviewers owner owners tenant tenants landlord landlords partner partners supplier suppliers courier couriers passenger passengers " +
    "traveler travelers traveller travellers player players reader readers author authors editor editors subscriber subscribers citizen " +
    "citizens volunteer volunteers donor donors parent parents physician physicians accountant accountants investor investors applicant " +
    "applicants candidate candidates recruiter recruiters participant participants resident residents host hosts organizer organizers " +
    "attendee attendees consultant consultants technician technicians dispatcher dispatchers auditor auditors approver approvers people " +
    "person team teams shopper shoppers learner learners instructor instructors coach coaches athlete athletes farmer farmers clinician clinicians " +
    "receptionist receptionists cashier cashiers pharmacist pharmacists therapist therapists dentist dentists family families friend friends " +
    "worker workers officer officers clerk clerks caregiver caregivers carer carers freelancer freelancers contractor contractors " +
    "homeowner homeowners restaurant restaurants shop shops store stores business businesses company companies school schools"
  ).split(" "),
);

/** Groups that act as one ("the back office reconciles ..."); a story's role is one of their members. */
const COLLECTIVES = new Set("staff personnel team office department desk crew board committee unit management support administration helpdesk".split(" "));
/** Collectives that take a plural verb ("operations staff handle disputes"). */
export const PLURAL_COLLECTIVES = new Set(["staff", "personnel"]);

/** Nouns that look like someone who does something (-er, -or, -ist, -ant, ...) but name things. */
const NOT_AGENTS = new Set(
  (
    "order offer letter number paper filter transfer answer voucher container parameter center centre folder header footer banner timer " +
    "counter marker layer server browser computer printer router scanner sticker poster cover power water tower register ledger trailer " +
    "corner border matter chapter character calendar barrier reminder error sensor monitor color colour floor door factor vector mirror motor " +
    "elevator indicator calculator event component incident accident content intent fee tree degree guarantee coffee dinner summer winter " +
    "weather meter liter litre cluster trigger slider tracker wrapper buffer cursor processor connector adapter plant percent talent patent " +
    "invoice distributor generator converter ingredient payment document comment statement settlement appointment"
  ).split(" "),
);

export function isPersonWord(word: string): boolean {
  return PERSON_WORDS.has(word.toLowerCase());
}

/** Whether a noun names someone who acts: a known role, a group, or a noun of agency ("receptionists", "vendors"). */
export function isActorNoun(word: string): boolean {
  const lower = word.toLowerCase();
  if (PERSON_WORDS.has(lower) || COLLECTIVES.has(lower)) return true;
  const one = singular(lower);
  if (NOT_AGENTS.has(one) || /(ment|list|ness|tion|sion)$/.test(one)) return false;
  return /(er|or|ist|ian|ant|ent|ee|eer)$/.test(one);
}

/** Words that open a noun phrase ("the", "each", "their") and name nobody. */
export const DETERMINERS = new Set("the a an their his her its our your my all any each every some these those this new existing own".split(" "));

/** The actor's words without a leading determiner ("the back office" -> "back office"). */
function actorWords(actor: string): string[] {
  const words = normalizeSpace(actor).split(" ");
  while (words.length > 1 && DETERMINERS.has((words[0] ?? "").toLowerCase())) words.shift();
  return words;
}

/** "riders", "people", "staff": a noun in the plural, or a collective that takes a plural verb. */
export function isPluralNoun(word: string): boolean {
  const lower = bare(word);
  if (PLURAL_COLLECTIVES.has(lower) || IRREGULAR_SINGULARS[lower]) return true;
  return singular(lower) !== lower;
}

/** A group named in the singular ("Back office", "Support team"): "the back office", with a singular verb. */
export function isSingularGroup(actor: string): boolean {
  const last = (actorWords(actor).at(-1) ?? "").toLowerCase();
  return COLLECTIVES.has(last) && !PLURAL_COLLECTIVES.has(last);
}

/** "customers" -> "Customer", "operations staff" -> "Operations staff member", "back office" -> "Back office member": the role in stories and diagrams. */
export function roleName(actor: string): string {
  const words = actorWords(actor);
  const last = words[words.length - 1] ?? actor;
  const lower = last.toLowerCase();
  if (lower === "member" || lower === "members") return sentenceCase([...words.slice(0, -1), "member"].join(" "));
  if (COLLECTIVES.has(lower) || (lower === "teams" && words.length > 0)) return sentenceCase([...words.slice(0, -1), singular(last), "member"].join(" "));
  return sentenceCase([...words.slice(0, -1), singular(last)].join(" "));
}

/** The actor as a group in sentence case: "each driver" -> "Drivers", "the back office" -> "Back office". */
export function actorName(subject: string): string {
  const words = actorWords(subject);
  const last = words[words.length - 1] ?? subject;
  const lower = last.toLowerCase();
  const group = COLLECTIVES.has(lower) || isPluralNoun(last) ? last : pluralNoun(last);
  return sentenceCase([...words.slice(0, -1), group].join(" "));
}

/** How a sentence names the actor's group mid-sentence: "riders", "operations staff", "the back office". */
export function actorReference(actor: string): string {
  if (actor === "System") return "the system";
  const words = actorWords(actor).join(" ");
  return isSingularGroup(actor) ? `the ${lowerFirst(words)}` : lowerFirst(words);
}

/** The actor doing the actions, agreeing in number: "riders book trips and pay by card", "the back office reconciles settlements". */
export function actorClause(actor: string, actions: string | readonly string[]): string {
  const agreeing = (action: string) => (isSingularGroup(actor) || actor === "System" ? thirdPersonPhrase(action) : action);
  return `${actorReference(actor)} ${joinList((typeof actions === "string" ? [actions] : [...actions]).map(agreeing))}`;
}

/** A role's own words in the first person, for stories ("manage their catalogs" -> "manage my catalogs"). */
export function firstPerson(action: string): string {
  return action.replace(/\btheir\b/gi, "my").replace(/\bthemselves\b/gi, "myself").replace(/\bthem\b/gi, "me");
}
