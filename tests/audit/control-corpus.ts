/**
 * A clean control store for the reachability audit: 200 distinct memories made from ten unlike
 * templates, twenty memories each, no two of a template sharing any slot word (each slot list
 * has twenty words, and memory i of a template takes word (i × step + offset) mod 20 of each,
 * a different word per memory). The test measures their largest pairwise cosine against the
 * shadowing threshold rather than trusting this comment.
 */
const PEOPLE =
  "Maya Omar Priya Lukas Ines Tariq Sofia Kenji Amara Diego Hana Felix Zara Mateo Leila Arjun Nadia Bruno Yuki Elena".split(" ");
const PLACES =
  "Lisbon Nairobi Osaka Denver Oslo Quito Hanoi Tunis Perth Krakow Lima Seville Dakar Busan Tallinn Cusco Bergen Accra Malmo Tbilisi".split(
    " ",
  );
const SERVICES =
  "billing search checkout ledger gateway inventory payroll shipping identity analytics notifications scheduler catalog reviews pricing loyalty invoicing onboarding telemetry archive".split(
    " ",
  );
const FOODS =
  "mango peanuts shellfish lactose gluten sesame kiwi soy eggs walnuts celery mustard lupin strawberries avocado garlic cinnamon tomato chickpeas oats".split(
    " ",
  );
const HOBBIES =
  "bouldering pottery chess sailing beekeeping origami fencing birdwatching calligraphy kayaking astronomy knitting archery woodworking salsa surfing juggling gardening cycling photography".split(
    " ",
  );
const TOOLS =
  "Grafana Terraform Kafka Redis Postgres Nginx Vault Jenkins Airflow Spark Consul Envoy Sentry Prometheus Ansible Helm Flink Druid Trino Celery".split(
    " ",
  );
const MONTHS =
  "January February March April May June July August September October November December spring summer autumn winter Monday Friday weekend midnight".split(
    " ",
  );
const NUMBERS =
  "two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty ninety hundred thousand".split(
    " ",
  );
const COLORS =
  "crimson teal amber violet olive navy coral ivory maroon cyan indigo beige lime plum rust silver gold charcoal peach mint".split(
    " ",
  );
const PETS =
  "parrot beagle tortoise hamster iguana ferret goldfish poodle rabbit gecko husky canary chinchilla dachshund cockatoo axolotl terrier hedgehog lizard collie".split(
    " ",
  );

const pick = (list: readonly string[], i: number, step: number, offset: number) => list[(i * step + offset) % list.length]!;

const TEMPLATES: ((i: number) => { summary: string; tags: string[] })[] = [
  (i) => ({
    summary: `${pick(PEOPLE, i, 1, 0)} is allergic to ${pick(FOODS, i, 3, 1)} and carries an epipen when travelling to ${pick(PLACES, i, 7, 2)}.`,
    tags: ["health"],
  }),
  (i) => ({
    summary: `The ${pick(SERVICES, i, 1, 3)} service was migrated off ${pick(TOOLS, i, 3, 4)} after an outage lasting ${pick(NUMBERS, i, 7, 5)} hours.`,
    tags: ["infra", "incident"],
  }),
  (i) => ({
    summary: `On weekends ${pick(PEOPLE, i, 3, 6)} goes ${pick(HOBBIES, i, 1, 7)} near ${pick(PLACES, i, 9, 8)} with an old friend from school.`,
    tags: ["personal"],
  }),
  (i) => ({
    summary: `Decision: every ${pick(TOOLS, i, 1, 9)} alert for ${pick(SERVICES, i, 7, 10)} now pages the on-call engineer within ${pick(NUMBERS, i, 3, 11)} minutes.`,
    tags: ["decision", "oncall"],
  }),
  (i) => ({
    summary: `${pick(PEOPLE, i, 7, 12)} adopted a ${pick(COLORS, i, 1, 13)} ${pick(PETS, i, 3, 14)} and named it after a ${pick(HOBBIES, i, 9, 15)} champion.`,
    tags: ["pets"],
  }),
  (i) => ({
    summary: `${pick(PEOPLE, i, 13, 16)} booked ${pick(NUMBERS, i, 9, 17)} nights in ${pick(PLACES, i, 11, 18)} for the ${pick(HOBBIES, i, 3, 19)} festival in ${pick(MONTHS, i, 1, 0)}.`,
    tags: ["travel"],
  }),
  (i) => ({
    summary: `The ${pick(COLORS, i, 3, 19)} dashboard in ${pick(TOOLS, i, 7, 0)} shows ${pick(PLACES, i, 1, 1)} traffic, refreshed every ${pick(NUMBERS, i, 11, 2)} seconds.`,
    tags: ["observability"],
  }),
  (i) => ({
    summary: `${pick(PEOPLE, i, 9, 3)} cooks ${pick(FOODS, i, 7, 4)} curry every ${pick(MONTHS, i, 3, 5)}.`,
    tags: ["preference"],
  }),
  (i) => ({
    summary: `Conference talk about ${pick(HOBBIES, i, 11, 6)} as a metaphor for ${pick(SERVICES, i, 9, 7)} design, given in ${pick(PLACES, i, 3, 8)} by ${pick(PEOPLE, i, 11, 9)}.`,
    tags: ["talks"],
  }),
  (i) => ({
    summary: `${pick(TOOLS, i, 9, 10)} keys expire in ${pick(MONTHS, i, 7, 11)}; ${pick(PEOPLE, i, 17, 12)} keeps a ${pick(COLORS, i, 7, 13)} ${pick(PETS, i, 1, 12)} sticker on rotated ones.`,
    tags: ["security"],
  }),
];

export function controlCorpus(): { id: string; summary: string; type: string; tags: string[] }[] {
  return Array.from({ length: 200 }, (_, n) => {
    const template = n % TEMPLATES.length;
    const { summary, tags } = TEMPLATES[template]!(Math.floor(n / TEMPLATES.length));
    return { id: `control-${String(n).padStart(3, "0")}`, summary, type: "fact", tags };
  });
}
