/**
 * A node's `when`: parsed at load time, evaluated when the node is reached. Pure.
 *
 *   condition  := all ( "||" all )*
 *   all        := comparison ( "&&" comparison )*          (&& binds tighter than ||)
 *   comparison := reference operator value
 *   reference  := $id.output | $id.output.field
 *   operator   := == | != | < | > | <= | >=
 *   value      := 'string' | "string" | number | true | false
 *
 * Inside a quoted string `\'` (or `\"`) and `\\` stand for the quote and the backslash; operators in it are text.
 *
 * Evaluation: the output is taken with surrounding whitespace trimmed (a node's output often ends with a newline),
 * `""` for a node that has not completed. `<`, `>`, `<=`, `>=` compare numbers; a side that is not a number makes
 * the comparison false. `==` and `!=` compare numbers numerically when both sides are numbers, `true`/`false` with
 * the text "true"/"false", anything else as text (exact, case-sensitive). A field that cannot be read (output not
 * JSON, field missing) makes the comparison false, whatever its operator (`!=` too).
 */
import { type OutputLookup, type OutputReference, matchReferenceAt, readOutputReference } from "./references";

export const COMPARISON_OPERATORS = ["==", "!=", "<=", ">=", "<", ">"] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

export type ConditionValue = { type: "string"; value: string } | { type: "number"; value: number } | { type: "boolean"; value: boolean };

export interface Comparison {
  type: "comparison";
  reference: OutputReference;
  operator: ComparisonOperator;
  value: ConditionValue;
}

export type Condition = Comparison | { type: "and"; operands: Condition[] } | { type: "or"; operands: Condition[] };

/** `offset` is 0-based in the source; the message counts characters from 1. */
export type ParseResult = { ok: true; ast: Condition } | { ok: false; message: string; offset: number };

class ParseFailure {
  constructor(
    readonly expected: string,
    readonly offset: number,
  ) {}
}

const NUMBER = /[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?![A-Za-z0-9_.])/y;
const KEYWORD = /(true|false)(?![A-Za-z0-9_])/y;
const OPERATORS_TEXT = COMPARISON_OPERATORS.join(", ");

class Parser {
  private pos = 0;
  constructor(private readonly source: string) {}

  parse(): Condition {
    const ast = this.list("||", "or", () => this.list("&&", "and", () => this.comparison()));
    this.skipSpace();
    if (this.pos < this.source.length) throw new ParseFailure("&&, || or the end of the condition", this.pos);
    return ast;
  }

  private skipSpace(): void {
    while (this.pos < this.source.length && /\s/.test(this.source[this.pos]!)) this.pos++;
  }

  private accept(token: string): boolean {
    this.skipSpace();
    if (!this.source.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }

  private list(token: "&&" | "||", type: "and" | "or", operand: () => Condition): Condition {
    const operands = [operand()];
    while (this.accept(token)) operands.push(operand());
    return operands.length === 1 ? operands[0]! : { type, operands };
  }

  private comparison(): Comparison {
    this.skipSpace();
    const ref = this.source[this.pos] === "$" ? matchReferenceAt(this.source, this.pos) : undefined;
    if (ref?.kind !== "output") throw new ParseFailure("a node output reference ($id.output or $id.output.field)", this.pos);
    this.pos = ref.end;
    this.skipSpace();
    const operator = COMPARISON_OPERATORS.find((op) => this.source.startsWith(op, this.pos));
    if (!operator) throw new ParseFailure(`an operator (${OPERATORS_TEXT})`, this.pos);
    this.pos += operator.length;
    this.skipSpace();
    const { kind: _kind, ...reference } = ref;
    return { type: "comparison", reference, operator, value: this.value() };
  }

  private value(): ConditionValue {
    const quote = this.source[this.pos];
    if (quote === "'" || quote === '"') return this.quoted(quote);
    for (const [pattern, make] of [
      [NUMBER, (text: string): ConditionValue => ({ type: "number", value: Number(text) })],
      [KEYWORD, (text: string): ConditionValue => ({ type: "boolean", value: text === "true" })],
    ] as const) {
      pattern.lastIndex = this.pos;
      const m = pattern.exec(this.source);
      if (m) {
        this.pos += m[0].length;
        return make(m[0]);
      }
    }
    throw new ParseFailure("a value ('quoted string', number, true or false)", this.pos);
  }

  private quoted(quote: string): ConditionValue {
    const start = this.pos;
    let value = "";
    for (let i = start + 1; i < this.source.length; i++) {
      const c = this.source[i]!;
      if (c === quote) {
        this.pos = i + 1;
        return { type: "string", value };
      }
      if (c === "\\" && (this.source[i + 1] === quote || this.source[i + 1] === "\\")) value += this.source[++i];
      else value += c;
    }
    throw new ParseFailure(`a closing ${quote} for the string that starts`, start);
  }
}

function found(source: string, offset: number): string {
  if (offset >= source.length) return "the end of the condition";
  const rest = source.slice(offset);
  return JSON.stringify(rest.length > 12 ? `${rest.slice(0, 12)}…` : rest);
}

/** The condition's tree, or what was expected where: `expected an operator (==, ...) at character 11, found "= 'x'"`. */
export function parseCondition(source: string): ParseResult {
  try {
    return { ok: true, ast: new Parser(source).parse() };
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    return { ok: false, message: `expected ${e.expected} at character ${e.offset + 1}, found ${found(source, e.offset)}`, offset: e.offset };
  }
}

/** The number a text stands for (decimal notation only; not `""`, not `0x10`). */
function numberOf(text: string): number | undefined {
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function compare(left: string, operator: ComparisonOperator, value: ConditionValue): boolean {
  const l = numberOf(left);
  const r = value.type === "number" ? value.value : value.type === "string" ? numberOf(value.value.trim()) : undefined;
  const numeric = l !== undefined && r !== undefined;
  switch (operator) {
    case "<":
      return numeric && l < r;
    case ">":
      return numeric && l > r;
    case "<=":
      return numeric && l <= r;
    case ">=":
      return numeric && l >= r;
    default: {
      const equal = numeric ? l === r : left === String(value.value);
      return operator === "==" ? equal : !equal;
    }
  }
}

/** True when the condition holds for the outputs given (never throws; see the module comment). */
export function evaluateCondition(ast: Condition, outputOf: OutputLookup): boolean {
  switch (ast.type) {
    case "and":
      return ast.operands.every((operand) => evaluateCondition(operand, outputOf));
    case "or":
      return ast.operands.some((operand) => evaluateCondition(operand, outputOf));
    case "comparison": {
      const read = readOutputReference(ast.reference, outputOf);
      return read.ok && compare(read.value.trim(), ast.operator, ast.value);
    }
  }
}

/** The node ids a condition reads, each once, in order of appearance. */
export function conditionReferences(ast: Condition): string[] {
  if (ast.type === "comparison") return [ast.reference.nodeId];
  return [...new Set(ast.operands.flatMap(conditionReferences))];
}
