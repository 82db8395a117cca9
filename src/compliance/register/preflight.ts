import { isValidLei, type VendorProfile } from '../../domain/vendorProfile.js';
import { checkKeysAndReferences, checkRules, RULES_SOURCE, type Failure } from './ebaRules.js';
import { amountInBase, buildTables, includedVendors, reportedSubcontractors, storesData, supportsCritical, type Origin, type Tables } from './tables.js';
import { TEMPLATES, type TemplateId } from './taxonomy.js';
import type { RegisterInput, RegisterVendor } from './types.js';

/**
 * The pre-flight check (docs/register-of-information.md): the EBA's active validation rules,
 * the taxonomy's keys and references, run on the very tables the package would hold, and the
 * register's own checks (a package with no provider, a critical function without a contract).
 * Every issue says in words what to do and where; the rule and the EBA cell are its detail.
 */

export interface PreflightIssue {
  severity: 'error' | 'warning';
  /** `rule` (an EBA validation rule), `key`, `unique`, `reference` (the taxonomy), `register` (this service's own). */
  check: 'rule' | 'key' | 'unique' | 'reference' | 'register';
  /** EBA rule ids behind the issue (`v8881_m`); empty for the other checks. */
  rules: string[];
  template: TemplateId | null;
  column: string | null;
  /**
   * Where to fix it: `entity.<setting>`, `function:<id>.<field>`, `functions`, `fxRate:<currency>`,
   * `vendorProfile.<path>` of the vendor, `contracts`.
   */
  field: string;
  message: string;
}

/** A profile value taken from a document: where it came from (docs/register-drafting.md). */
export interface PreflightSource {
  field: string;
  path: string;
  document: string;
  quote: string;
  link: string;
  action: string;
}

export interface PreflightReport {
  ready: boolean;
  errors: number;
  warnings: number;
  entity: PreflightIssue[];
  functions: { id: string; code: string; name: string; issues: PreflightIssue[] }[];
  vendors: { workspaceId: string; workspaceSlug: string; name: string; included: boolean; issues: PreflightIssue[]; sources: PreflightSource[] }[];
  /** What the package holds. */
  package: { vendors: number; contracts: number; functions: number; subcontractors: number; rows: Record<TemplateId, number> };
  /** The EBA rules applied. */
  rules: typeof RULES_SOURCE;
}

type Advice = { field: string; message: string };
type Contract = NonNullable<VendorProfile['contracts']>[number];

const ENTITY_CELLS: Record<string, Advice> = {
  c0010: { field: 'entity.lei', message: "Set the entity's LEI on the register page" },
  c0020: { field: 'entity.name', message: "Set the entity's name on the register page" },
  c0030: { field: 'entity.country', message: "Set the entity's country on the register page" },
  c0040: { field: 'entity.entityType', message: "Choose the entity's type on the register page" },
};

/** What to do about an empty or wrong cell, in words, from the row's origin. */
function advise(t: TemplateId, col: string, origin: Origin, input: RegisterInput): Advice {
  const vendorOf = (workspaceId: string) => input.vendors.find((v) => v.workspaceId === workspaceId)!;
  if (origin.kind === 'entity') {
    if (t === 'B_01.01' && col === 'c0050') return { field: 'entity.competentAuthority', message: "Set the entity's competent authority on the register page" };
    if ((t === 'B_01.01' && col === 'c0060') || (t === 'B_01.02' && col === 'c0080'))
      return { field: 'entity.referenceDate', message: 'Set the reference date of the register on the register page' };
    if (t === 'B_01.02' && col === 'c0100') return { field: 'entity.currency', message: "Set the entity's reporting currency on the register page" };
    if (t === 'B_01.02' && col === 'c0110') return { field: 'entity.totalAssets', message: "Enter the entity's total assets on the register page" };
    return ENTITY_CELLS[col] ?? ENTITY_CELLS.c0010!;
  }
  if (origin.kind === 'function') {
    const f = input.functions.find((x) => x.id === origin.functionId)!;
    const what: Record<string, [string, string]> = {
      c0020: ['licensedActivity', 'licensed activity'],
      c0030: ['name', 'name'],
      c0050: ['criticality', 'criticality or importance assessment'],
      c0070: ['lastAssessmentDate', 'date of its last criticality assessment'],
      c0080: ['rtoHours', 'recovery time objective'],
      c0090: ['rpoHours', 'recovery point objective'],
      c0100: ['impact', 'impact of discontinuing it'],
    };
    if (col === 'c0040') return ENTITY_CELLS.c0010!;
    const [field, label] = what[col] ?? ['name', col];
    return { field: `function:${f.id}.${field}`, message: `Record the ${label} of function ${f.code} (${f.name}) on the register page` };
  }
  if (origin.kind === 'subcontractor') {
    const v = vendorOf(origin.workspaceId);
    const s = v.profile.subcontractors![origin.index]!;
    const f = `vendorProfile.subcontractors.${origin.index}`;
    if (col === 'c0080') return { field: `${f}.country`, message: `Set the country of ${s.name}, subcontractor of ${v.name}, on the vendor profile` };
    if (col === 'c0050' || col === 'c0060')
      return { field: `${f}.name`, message: `Enter the name of subcontractor ${s.name} of ${v.name} on the vendor profile` };
    if (t === 'B_05.02' && (col === 'c0060' || col === 'c0070'))
      return { field: 'vendorProfile.identifier', message: `Enter ${v.name}'s identification code (its LEI) on the vendor profile` };
    return { field: `${f}.identifier`, message: `Enter the identification code of ${s.name}, subcontractor of ${v.name}, on the vendor profile` };
  }
  if (origin.kind === 'vendor') {
    const v = vendorOf(origin.workspaceId);
    if (col === 'c0050' || col === 'c0060') return { field: 'vendorProfile.legalName', message: `Enter ${v.name}'s legal name on the vendor profile` };
    if (col === 'c0080') return { field: 'vendorProfile.country', message: `Set the country of ${v.name}'s headquarters on the vendor profile` };
    if (col === 'c0090' || col === 'c0100') return { field: 'vendorProfile.contracts', message: `Enter the annual cost of every contract of ${v.name}` };
    return { field: 'vendorProfile.identifier', message: `Enter ${v.name}'s identification code (its LEI) on the vendor profile` };
  }
  if (origin.kind === 'contract') {
    const v = vendorOf(origin.workspaceId);
    const c = v.profile.contracts![origin.contract]!;
    const f = `vendorProfile.contracts.${origin.contract}`;
    const name = `contract ${c.reference} of ${v.name}`;
    const provider = ['B_02.02 c0030', 'B_02.02 c0040', 'B_03.02 c0020', 'B_03.02 c0030', 'B_05.02 c0030', 'B_05.02 c0040', 'B_05.02 c0060', 'B_05.02 c0070'];
    const cell = `${t} ${col}`;
    if (provider.includes(cell) || (t === 'B_07.01' && (col === 'c0020' || col === 'c0030')))
      return { field: 'vendorProfile.identifier', message: `Enter ${v.name}'s identification code (its LEI) on the vendor profile` };
    if (['B_02.02 c0020', 'B_03.01 c0020', 'B_04.01 c0020'].includes(cell)) return ENTITY_CELLS.c0010!;
    if (cell === 'B_02.01 c0030') return { field: `${f}.overarchingReference`, message: `Name the overarching arrangement of ${name}` };
    if (cell === 'B_02.01 c0040' || cell === 'B_02.01 c0050') {
      if (c.annualCost && amountInBase(c.annualCost, input) === null)
        return {
          field: `fxRate:${c.annualCost.currency}`,
          message: `Record the ${c.annualCost.currency} to ${input.entity.currency} exchange rate as at ${input.entity.referenceDate} (or an earlier date) on the register page: ${name} costs ${c.annualCost.amount} ${c.annualCost.currency}`,
        };
      return { field: `${f}.annualCost`, message: `Enter the annual cost of ${name}` };
    }
    if (cell === 'B_02.02 c0050') return { field: `${f}.functionIds`, message: `Link ${name} to the business function(s) it supports` };
    if (cell === 'B_02.02 c0060' || cell === 'B_05.02 c0020' || cell === 'B_07.01 c0040')
      return { field: `${f}.ictServiceType`, message: `Choose the type of ICT services of ${name}` };
    if (cell === 'B_02.02 c0070') return { field: `${f}.startDate`, message: `Enter the start date of ${name}` };
    if (cell === 'B_02.02 c0130') return { field: `${f}.serviceLocations`, message: `Record the countries where the service of ${name} is provided` };
    if (cell === 'B_02.02 c0150')
      return { field: `${f}.dataStorageLocations`, message: `Record where the data of ${name} is stored, or that the service stores no data` };
    if (cell === 'B_02.02 c0160')
      return { field: `${f}.dataProcessingLocations`, message: `Record where the data of ${name} is processed, or that the service processes no data` };
    if (t === 'B_07.01') {
      const exit: Record<string, Advice> = {
        c0050: { field: 'vendorProfile.substitutability', message: `Assess how substitutable ${v.name} is, on the vendor profile` },
        c0060: { field: 'vendorProfile.exitPlan.alternativeProvidersIdentified', message: `Record whether alternatives to ${v.name} were identified` },
        c0070: { field: 'vendorProfile.lastAuditDate', message: `Enter the date of the last audit of ${v.name} on the vendor profile` },
        c0080: { field: 'vendorProfile.exitPlan.exists', message: `Record whether an exit plan for ${v.name} exists` },
        c0090: { field: 'vendorProfile.exitPlan.reintegrationPossibility', message: `Assess whether the service of ${v.name} could be brought back in-house` },
        c0100: { field: 'vendorProfile.discontinuationImpact', message: `Assess the impact of discontinuing the services of ${v.name}` },
        c0110: { field: 'vendorProfile.exitPlan.alternativeProvidersIdentified', message: `Record whether alternatives to ${v.name} were identified` },
      };
      if (exit[col]) return exit[col]!;
    }
    if (col === 'c0010') return { field: `${f}.reference`, message: `Give contract ${origin.contract + 1} of ${v.name} a reference` };
    return { field: f, message: `Complete ${name} (${cell})` };
  }
  return { field: 'register', message: `Complete ${t} ${col}` };
}

/** The message of a failure: the advice for its first cell, or what a duplicate or a dangling reference means. */
function describe(fl: Failure, origin: Origin, input: RegisterInput, tables: Tables): Advice {
  const col = fl.columns[0]!;
  if (fl.check === 'unique' && origin.kind === 'contract' && fl.template !== 'B_02.02') {
    const v = input.vendors.find((x) => x.workspaceId === origin.workspaceId)!;
    const ref = v.profile.contracts![origin.contract]!.reference;
    const users = [...new Set(input.vendors.filter((x) => (x.profile.contracts ?? []).some((c) => c.reference === ref)).map((x) => x.name))];
    return {
      field: `vendorProfile.contracts.${origin.contract}.reference`,
      message: `Contract reference ${ref} is used more than once (${users.join(', ')}): give each contract its own reference`,
    };
  }
  if (fl.check === 'unique' && (origin.kind === 'vendor' || origin.kind === 'subcontractor')) {
    const code = tables.rows[fl.template][fl.row]![col];
    const users = input.vendors.filter((v) => v.profile.identifier?.value === code).map((v) => v.name);
    const field = advise(fl.template, 'c0010', origin, input).field;
    return {
      field,
      message: `Identification code ${code} is given to two providers${users.length > 1 ? ` (${users.join(', ')})` : ''}: correct it on the vendor profile`,
    };
  }
  if (fl.check === 'unique')
    return { ...advise(fl.template, col, origin, input), message: `${fl.template} repeats a row: ${advise(fl.template, col, origin, input).message}` };
  if (fl.check === 'reference' && fl.template === 'B_02.02' && col === 'c0050' && origin.kind === 'contract') {
    const a = advise('B_02.02', 'c0050', origin, input);
    return { field: a.field, message: `${a.message}: it names a function that is no longer in the register` };
  }
  if (fl.check === 'reference' && fl.template === 'B_02.01' && col === 'c0030' && origin.kind === 'contract') {
    const c = input.vendors.find((x) => x.workspaceId === origin.workspaceId)!.profile.contracts![origin.contract]!;
    return {
      field: `vendorProfile.contracts.${origin.contract}.overarchingReference`,
      message: `The overarching arrangement ${c.overarchingReference} of contract ${c.reference} is not in the register: add that contract or correct the reference`,
    };
  }
  return advise(fl.template, col, origin, input);
}

/** Runs the pre-flight on the register's records; `tables` are what the package would hold. */
export function preflight(input: RegisterInput): PreflightReport & { tables: Tables } {
  const tables = buildTables(input);
  const entityIssues: PreflightIssue[] = [];
  const byVendor = new Map<string, PreflightIssue[]>(input.vendors.map((v) => [v.workspaceId, []]));
  const byFunction = new Map<string, PreflightIssue[]>(input.functions.map((f) => [f.id, []]));
  const listOf = (o: Origin) =>
    o.kind === 'entity' || o.kind === 'none' ? entityIssues : o.kind === 'function' ? byFunction.get(o.functionId)! : byVendor.get(o.workspaceId)!;
  const add = (o: Origin, i: PreflightIssue) => {
    // A cell of the entity (its LEI in a contract's row) is the entity's to fix, said once.
    const list = i.field.startsWith('entity.') ? entityIssues : listOf(o);
    const same = list.find((x) => x.field === i.field && x.message === i.message);
    if (!same) list.push(i);
    else {
      for (const r of i.rules) if (!same.rules.includes(r)) same.rules.push(r);
      if (i.severity === 'error') same.severity = 'error';
    }
  };
  const register = (
    o: Origin,
    severity: 'error' | 'warning',
    field: string,
    message: string,
    template: TemplateId | null = null,
    column: string | null = null,
  ) => add(o, { severity, check: 'register', rules: [], template, column, field, message });

  // The checks the EBA runs, on the tables themselves.
  // The EBA's active rules only: a rule it deactivated is not applied to a filing (ebaRules.json keeps it, inactive).
  for (const fl of [...checkKeysAndReferences(tables.rows), ...checkRules(tables.rows)].filter((f) => f.active)) {
    const origin = tables.origin[fl.template][fl.row]!;
    // An empty cell is one thing to do: one issue per empty column (a duplicate or a reference is about the columns together).
    const parts = fl.check === 'key' || fl.check === 'rule' ? fl.columns.map((c) => ({ ...fl, columns: [c] })) : [fl];
    for (const part of parts) {
      const a = describe(part, origin, input, tables);
      add(origin, {
        severity: 'error',
        check: fl.check,
        rules: fl.rule ? [fl.rule] : [],
        template: fl.template,
        column: part.columns.join(', '),
        field: a.field,
        message: a.message,
      });
    }
  }

  // The register's own checks.
  const entity = input.entity;
  if (entity.lei && !isValidLei(entity.lei))
    register(
      { kind: 'entity' },
      'error',
      'entity.lei',
      `The entity's LEI ${entity.lei} fails its ISO 17442 check digits: correct it on the register page`,
      'B_01.01',
      'c0010',
    );
  const included = includedVendors(input.vendors);
  if (!included.length)
    register(
      { kind: 'entity' },
      'error',
      'contracts',
      'Record a contract with at least one vendor: a package without an ICT third-party service provider cannot be filed',
      'B_02.01',
      'c0010',
    );
  for (const f of input.functions) {
    const used = included.some((v) => (v.profile.contracts ?? []).some((c) => c.functionIds?.includes(f.id)));
    if (f.criticality === 'yes' && !used)
      register(
        { kind: 'function', functionId: f.id },
        'error',
        `function:${f.id}.contracts`,
        `Link the contracts that support function ${f.code} (${f.name}) to it: a critical or important function is supported by at least one contract`,
        'B_02.02',
        'c0050',
      );
  }
  for (const v of input.vendors)
    vendorChecks(v, input, (severity, field, message, template, column) =>
      register({ kind: 'vendor', workspaceId: v.workspaceId }, severity, field, message, template, column),
    );

  const all = [...entityIssues, ...[...byFunction.values()].flat(), ...[...byVendor.values()].flat()];
  const errors = all.filter((i) => i.severity === 'error').length;
  const rows = Object.fromEntries(TEMPLATES.map((t) => [t, tables.rows[t].length])) as Record<TemplateId, number>;
  return {
    ready: errors === 0,
    errors,
    warnings: all.length - errors,
    entity: entityIssues,
    functions: input.functions.map((f) => ({ id: f.id, code: f.code, name: f.name, issues: byFunction.get(f.id) ?? [] })),
    vendors: input.vendors.map((v) => ({
      workspaceId: v.workspaceId,
      workspaceSlug: v.workspaceSlug,
      name: v.name,
      included: included.includes(v),
      issues: byVendor.get(v.workspaceId) ?? [],
      sources: Object.entries(v.sources ?? {}).map(([path, s]) => ({
        field: s.field,
        path,
        document: s.evidence[0]?.title ?? '',
        quote: s.evidence[0]?.quote ?? '',
        link: s.evidence[0]?.link ?? '',
        action: s.action,
      })),
    })),
    package: {
      vendors: included.length,
      contracts: rows['B_02.01'],
      functions: rows['B_06.01'],
      subcontractors: tables.rows['B_05.02'].filter((r) => r.c0050 === '2').length,
      rows,
    },
    rules: RULES_SOURCE,
    tables,
  };
}

type Report = (severity: 'error' | 'warning', field: string, message: string, template: TemplateId | null, column: string | null) => void;

/** What the EBA rules cannot see: values the ITS asks for, identifiers, rates, ended contracts. */
function vendorChecks(v: RegisterVendor, input: RegisterInput, report: Report) {
  const p = v.profile;
  const contracts = p.contracts ?? [];
  if (!contracts.length) {
    report(
      'warning',
      'vendorProfile.contracts',
      `${v.name} has no contract recorded and is left out of the package: add its contract on the vendor profile`,
      'B_02.01',
      'c0010',
    );
    return;
  }
  if (p.identifier?.type === 'LEI' && !isValidLei(p.identifier.value))
    report(
      'error',
      'vendorProfile.identifier.value',
      `${v.name}'s LEI ${p.identifier.value} fails its ISO 17442 check digits: correct it on the vendor profile`,
      'B_05.01',
      'c0010',
    );
  else if (p.identifier && p.identifier.type !== 'LEI' && p.identifier.type !== 'EUID')
    report(
      'warning',
      'vendorProfile.identifier',
      `${v.name} is identified by a ${p.identifier.type}: the ITS asks for the LEI (or the EUID) of a legal person; enter it if it has one`,
      'B_05.01',
      'c0020',
    );
  const missing = (p.subcontractors ?? []).filter((s) => !s.identifier?.value);
  if (missing.length)
    report(
      'warning',
      'vendorProfile.subcontractors',
      `${missing.length} subcontractor(s) of ${v.name} have no identification code and are left out of the supply chain (B_05.02): enter their LEI on the vendor profile (${missing
        .slice(0, 3)
        .map((s) => s.name)
        .join(', ')}${missing.length > 3 ? ', …' : ''})`,
      'B_05.02',
      'c0030',
    );
  const dup = (p.subcontractors ?? []).length - missing.length - reportedSubcontractors(p).length;
  if (dup > 0)
    report(
      'warning',
      'vendorProfile.subcontractors',
      `${dup} subcontractor(s) of ${v.name} repeat another's identification code and are reported once`,
      'B_05.01',
      'c0010',
    );
  contracts.forEach((c: Contract, i) => {
    const f = `vendorProfile.contracts.${i}`;
    const name = `contract ${c.reference} of ${v.name}`;
    const ref = input.entity.referenceDate;
    if (c.endDate && c.endDate <= ref && !c.terminationReason)
      report(
        'warning',
        `${f}.terminationReason`,
        `${name} ended on ${c.endDate}: record why it ended (End the contract on the vendor profile)`,
        'B_02.02',
        'c0090',
      );
    if (c.startDate > ref) report('warning', `${f}.startDate`, `${name} starts after the reference date ${ref}`, 'B_02.02', 'c0070');
    if (!supportsCritical(c, input)) return;
    // Mandatory for a service supporting a critical or important function (ITS, Annex I); no DPM rule checks them.
    const gaps: [boolean, string, string, string][] = [
      [c.noticePeriodDaysEntity === undefined, 'noticePeriodDaysEntity', 'c0100', 'the notice period of the entity'],
      [c.noticePeriodDaysProvider === undefined, 'noticePeriodDaysProvider', 'c0110', "the provider's notice period"],
      [!c.governingLaw, 'governingLaw', 'c0120', 'the country of the governing law'],
      [storesData(c) === undefined, 'storesData', 'c0140', 'whether the service stores data'],
      [!!storesData(c) && !c.dataSensitivity, 'dataSensitivity', 'c0170', 'the sensitiveness of the data stored'],
      [!p.criticalityTier, 'criticalityTier', 'c0180', `the criticality tier of ${v.name} (the level of reliance)`],
    ];
    for (const [gap, field, column, what] of gaps)
      if (gap)
        report(
          'warning',
          field === 'criticalityTier' ? 'vendorProfile.criticalityTier' : `${f}.${field}`,
          `Record ${what} for ${name}: it supports a critical or important function`,
          'B_02.02',
          column,
        );
  });
}
