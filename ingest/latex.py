"""LaTeX to readable Unicode with pylatexenc, tuned for what abstracts contain.

pylatexenc parses and knows the symbols; what is changed here is what it does for reading:
math stays readable (`$O(\\epsilon_n^2)$` -> "O(ε_n^2)", `j^{-\\frac{d}{d-1}}` -> "j^(-d/(d-1))",
`\\sqrt{K}` -> "√K", `n \\gg d` -> "n ≫ d"), formatting is unwrapped to plain letters
(`\\mathcal{O}` -> "O", `\\texttt{GPT-4}` -> "GPT-4"), citations and labels are dropped, and an
unknown macro keeps its name (an unexpanded `\\ours` reads "ours"). `%`, `&` and `~` are what
abstracts mean by them (a percentage, an ampersand, "about"), not a comment, a column or a space.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as default_text_specs
from pylatexenc.latexwalker import get_default_latex_context_db as default_parse_specs
from pylatexenc.macrospec import LatexContextDb, MacroSpec

# Macros whose content is kept as plain text: fonts and formatting carry no meaning in a graph,
# and plain letters match what other abstracts write ("O(n)", not "𝒪(n)").
_UNWRAP = ("texttt textsf textup textmd textnormal text mbox hbox fbox boldsymbol bm operatorname "
           "ensuremath mathnormal mathrm mathbf mathit mathsf mathtt mathcal mathscr mathfrak overline "
           "widebar underline uline").split()
# Macros dropped with their arguments: references to a document the abstract is not part of.
_DROP = ("cite citep citet citealp citealt citeauthor citeyear nocite ref eqref autoref cref Cref "
         "pageref label footnote footnotemark thanks vspace hspace index color").split()
# Relations and binary operators, written with a space either side ("n ≫ d", "x ∈ ℝ^d").
_SPACED = ("times cdot pm mp div le leq ge geq leqslant geqslant neq ll gg approx sim simeq cong "
           "equiv propto asymp lesssim gtrsim in notin ni subset subseteq supset supseteq cup cap "
           "setminus oplus otimes odot wedge vee to rightarrow leftarrow Rightarrow Leftarrow "
           "leftrightarrow Leftrightarrow mapsto longrightarrow perp parallel vdash prec succ preceq "
           "succeq triangleq").split()
# Symbols pylatexenc lacks or spells otherwise: ε (U+03B5) is how plain-text abstracts write
# epsilon, so `$\epsilon$-greedy` and "ε-greedy" are one term.
_SYMBOLS = {"epsilon": "ε", "land": " ∧ ", "lor": " ∨ ", "iff": " ⇔ ", "implies": " ⇒ ", "models": " ⊨ ",
            "coloneqq": " ≔ ", "ne": " ≠ ", "-": "", "|": "‖"}
# Macros without arguments that only size, space or style what follows: dropped.
_SIZES_AND_STYLES = ("left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr "
                     "displaystyle textstyle scriptstyle noindent newline em it bf rm tt sf sc small large Large "
                     "footnotesize normalsize").split()
_ALIASES = {"widetilde": "tilde", "widehat": "hat", "mathds": "mathbb", "mathbbm": "mathbb"}
_FRACTIONS = ("frac", "dfrac", "tfrac", "cfrac")
# Arguments of macros pylatexenc does not parse (or not as abstracts use them); others take one {}.
_ARGUMENTS = {"href": "[{{", "vspace": "*{", "hspace": "*{", "color": "[{", "dfrac": "{{", "tfrac": "{{",
              "cfrac": "{{"}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_WORD = re.compile(r"\w+")
_TIE = re.compile(r"(?<=[^\s\\])~(?=\S)")           # a~b: LaTeX's non-breaking space
_MATH_TIE = re.compile(r"(?<!\\)~")                     # in math every ~ is a space
_WORD_SPAN = re.compile(r"\S+")
_MACRO_BEFORE_LETTER = re.compile(r"(\\[A-Za-z]+)(?![A-Za-z])(?=[^\W\d_])")  # \hatγ: the macro is \hat
_LATEX_CHAR = re.compile(r"[\\{}]")
_MACRO_END = re.compile(r"\\[A-Za-z]+\*?$")
_ARGUMENT_BEFORE = re.compile(r"\\[A-Za-z]+\*?$|\}$")  # \name {x} or \name{a} {b}
_BARE_SPECIAL = re.compile(r"(?<!\\)([%&$])")       # 5% or A&B: what the text means, not LaTeX


MAX_NESTING = 32  # brace groups inside each other; abstracts use a few, pylatexenc recurses per level
_BRACE = re.compile(r"\\.|[{}]", re.DOTALL)


class NestingTooDeep(ValueError):
    """LaTeX nested deeper than MAX_NESTING: the parser would exhaust the stack (or take exponential time)."""


def _balanced(text: str) -> str:
    """The text with the brace groups it leaves open closed at its end (pylatexenc backtracks over an
    unclosed group once per enclosing macro argument: exponential in the nesting), checked for depth."""
    depth = deepest = 0
    for match in _BRACE.finditer(text):
        char = match.group()
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth = max(depth - 1, 0)
    if deepest > MAX_NESTING:
        raise NestingTooDeep(f"LaTeX nested {deepest} groups deep (at most {MAX_NESTING} are read)")
    return text + "}" * depth


def latex_to_text(text: str, math: bool) -> str:
    """LaTeX source (a math body when `math`) as plain Unicode text; NestingTooDeep past MAX_NESTING."""
    text = _balanced(_MATH_TIE.sub(" ", text) if math else replace_ties(text))
    text = _MACRO_BEFORE_LETTER.sub(r"\1 ", _BARE_SPECIAL.sub(r"\\\1", text))
    converter = _converter(math)
    return converter.nodelist_to_text(latexwalker.LatexWalker(
        text, latex_context=converter.parse_specs, tolerant_parsing=True).get_latex_nodes()[0])


def prose_to_text(text: str) -> str:
    """Prose with LaTeX in places: only the stretches holding LaTeX go through the parser
    (it reads a character at a time, so a whole abstract would cost 20 times more)."""
    parts: list[str] = []
    done = 0
    for start, end in _latex_stretches(text):
        parts += [replace_ties(text[done:start]), latex_to_text(text[start:end], math=False)]
        done = end
    parts.append(replace_ties(text[done:]))
    return "".join(parts)


def _latex_stretches(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of words holding LaTeX: from a word with a backslash or brace
    to where its braces close and no argument follows."""
    end = 0
    while special := _LATEX_CHAR.search(text, end):
        start = max(text.rfind(char, end, special.start()) for char in " \t\n") + 1 or end
        depth = 0
        words = _WORD_SPAN.finditer(text, start)
        word = next(words)
        while True:
            token = word.group()
            depth += token.count("{") - token.count("\\{") - token.count("}") + token.count("\\}")
            following = next(words, None)
            after = following.group() if following else ""
            takes_argument = (after.startswith("{") and _ARGUMENT_BEFORE.search(token)) or \
                (after.startswith("[") and _MACRO_END.search(token))
            if following is None or (depth <= 0 and not takes_argument):
                break
            word = following
        end = word.end()
        yield start, end


def replace_ties(text: str) -> str:
    """`Fig.~1` is LaTeX's unbreakable space; `about ~10%` keeps its tilde."""
    return _TIE.sub(" ", text)


def grouped(text: str, words_bare: bool = False) -> str:
    """A sub-expression as it reads inline: bare when one symbol or a number (or, for a
    subscript, a word), else in parentheses: ε^(-2), d/(d-1), √(SAT), x_max."""
    bare = len(text) == 1 or _NUMBER.fullmatch(text) or (words_bare and _WORD.fullmatch(text))
    wrapped = text.startswith("(") and text.endswith(")") and text.count("(") == 1
    return text if bare or wrapped else f"({text})"


class _Converter(LatexNodes2Text):
    """pylatexenc's converter with the reading rules of this module."""

    def __init__(self, math: bool) -> None:
        super().__init__(latex_context=_text_specs(), math_mode="text")
        self.math = math
        self.parse_specs = _parse_specs()

    def nodelist_to_text(self, nodelist: list) -> str:
        parts: list[str] = []
        for index, node in enumerate(nodelist):
            if node is None:
                continue
            text = self.node_to_text(node)
            previous = parts[-1] if parts else ""
            if self.math and previous.endswith(("^", "_")) and (
                    node.isNodeType(latexwalker.LatexGroupNode) or node.isNodeType(latexwalker.LatexMacroNode)):
                if node.isNodeType(latexwalker.LatexGroupNode):
                    text = self._groupnodecontents_to_text(node)
                text = grouped(text.strip(), words_bare=previous.endswith("_"))
            elif node.isNodeType(latexwalker.LatexMacroNode) and not _argument_nodes(node):
                following = nodelist[index + 1] if index + 1 < len(nodelist) else None
                if self._unknown(node) and following is not None and following.isNodeType(latexwalker.LatexGroupNode) \
                        and following.nodelist:
                    text = ""  # \name{X} of an unknown macro reads as X (and \name{} as "name")
                text += node.macro_post_space
            parts.append(text)
        return "".join(parts)

    def group_node_to_text(self, node: latexwalker.LatexGroupNode) -> str:
        """A brace group is read as its content, except a set ({0,1}, {x_i}, {y ∈ S}) keeps its braces."""
        text = self._groupnodecontents_to_text(node)
        plain = all(child.isNodeType(latexwalker.LatexCharsNode) for child in node.nodelist)
        return f"{{{text}}}" if not self.math and plain and _is_set(text) else text

    def macro_node_to_text(self, node: latexwalker.LatexMacroNode) -> str:
        if node.nodeargd is None and not self._unknown(node):
            # taken as another macro's argument (\not\equiv) or its arguments did not parse:
            # a plain symbol stays, anything that needs its arguments goes
            replacement = self.latex_context.get_macro_spec(node.macroname).simplify_repl
            return replacement if isinstance(replacement, str) and "%" not in replacement else ""
        if not self._unknown(node):
            return super().macro_node_to_text(node)
        arguments = _argument_nodes(node)
        return "".join(map(self._argument, arguments)) if arguments else node.macroname

    def _argument(self, node: latexwalker.LatexNode) -> str:
        return self.nodelist_to_text(node.nodelist) if node.isNodeType(latexwalker.LatexGroupNode) \
            else self.nodelist_to_text([node])

    def _unknown(self, node: latexwalker.LatexMacroNode) -> bool:
        return self.latex_context.get_macro_spec(node.macroname) is None


def _is_set(text: str) -> bool:
    """Braces in prose around a list or math ({0,1}, {x_i}, {y ∈ S}: what normalised math reads
    like) are a set, not LaTeX grouping; {,} in 9{,}674 and {=} are grouping."""
    return any(char.isalnum() for char in text) and \
        any(char in ",:|_^" or unicodedata.category(char) == "Sm" for char in text)


def _argument_nodes(node: latexwalker.LatexMacroNode) -> list[latexwalker.LatexNode]:
    """The arguments that were given (a missing optional one is left out)."""
    return [arg for arg in node.nodeargd.argnlist if arg is not None] if node.nodeargd else []


def _arguments(node: latexwalker.LatexMacroNode, l2tobj: _Converter) -> list[str]:
    return [l2tobj._argument(arg) for arg in _argument_nodes(node)]


def _fraction(node: latexwalker.LatexMacroNode, l2tobj: _Converter) -> str:
    numerator, denominator = (_arguments(node, l2tobj) + ["", ""])[:2]
    return f"{grouped(numerator.strip())}/{grouped(denominator.strip())}"


def _root(node: latexwalker.LatexMacroNode, l2tobj: _Converter) -> str:
    return "√" + grouped(_last_argument(node, l2tobj).strip())


def _negated(node: latexwalker.LatexMacroNode, l2tobj: _Converter) -> str:
    """\\not\\in -> " ∉ ": the relation struck through, spaced like the relation."""
    relation = _last_argument(node, l2tobj).strip()
    return f" {unicodedata.normalize('NFC', relation + chr(0x338))} " if len(relation) == 1 else relation


def _last_argument(node: latexwalker.LatexMacroNode, l2tobj: _Converter) -> str:
    arguments = _arguments(node, l2tobj)
    return arguments[-1] if arguments else ""


@cache
def _text_specs() -> LatexContextDb:
    """pylatexenc's text replacements, with this module's changes in front."""
    specs = default_text_specs().filter_context(keep_which=["macros", "environments"])
    macros = [MacroTextSpec(name, discard=False) for name in _UNWRAP]
    macros += [MacroTextSpec(name, discard=True) for name in [*_DROP, *_SIZES_AND_STYLES]]
    macros += [MacroTextSpec(name, simplify_repl=f" {specs.get_macro_spec(name).simplify_repl.strip()} ")
               for name in _SPACED]
    macros += [MacroTextSpec(name, simplify_repl=text) for name, text in _SYMBOLS.items()]
    macros += [MacroTextSpec(name, simplify_repl=specs.get_macro_spec(same).simplify_repl)
               for name, same in _ALIASES.items()]
    macros += [MacroTextSpec(name, simplify_repl=_fraction) for name in _FRACTIONS]
    macros += [MacroTextSpec("sqrt", simplify_repl=_root), MacroTextSpec("not", simplify_repl=_negated),
               MacroTextSpec("href", simplify_repl=_last_argument),
               MacroTextSpec("url", simplify_repl=_last_argument)]
    specs.add_context_category("paperkg", macros=macros, prepend=True)
    return specs


@cache
def _parse_specs() -> LatexContextDb:
    """pylatexenc's macro arguments, plus those of the macros it does not know."""
    specs = default_parse_specs().filter_context(keep_which=["macros", "environments"])
    macros = [MacroSpec(name, "{") for name in [*_UNWRAP, *_DROP, *_ALIASES]
              if specs.get_macro_spec(name) is None and name not in _ARGUMENTS]
    macros += [MacroSpec(name, arguments) for name, arguments in _ARGUMENTS.items()]
    specs.add_context_category("paperkg", macros=macros, prepend=True)
    return specs


@cache
def _converter(math: bool) -> _Converter:
    return _Converter(math)
