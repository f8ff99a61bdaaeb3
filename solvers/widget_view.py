"""The notebook view of :class:`~solvers.widget.PlayModel`: ``kibitz.play_widget("blokus", bots="greedy")``.

A thin layer of ipywidgets over the model: the seat's SVG picture, a click board (an anywidget drawing
the model's own grids and buttons; a click sends the token's key back to Python), the short list of
candidate moves, a box to type a move, undo, new game (with its seed), the bots' choice and budget, and
one line saying what happened.  Every handler calls the model and redraws; nothing here decides a rule.
Needs the ``notebook`` extra (ipywidgets, anywidget).
"""

from __future__ import annotations

from typing import Any

try:
    import anywidget
    import ipywidgets as widgets
    import traitlets
except ImportError as missing:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"the play widget needs the notebook extra ({missing.name} is missing): "
                      "pip install 'kibitz[notebook]'") from None

from solvers.bots import split_spec
from solvers.widget import PlayModel

_ESM = """
function render({ model, el }) {
  const NS = "http://www.w3.org/2000/svg";
  const draw = () => {
    el.replaceChildren();
    const groups = new Map();
    for (const t of model.get("targets")) {
      if (!groups.has(t.group)) groups.set(t.group, []);
      groups.get(t.group).push(t);
    }
    const size = model.get("cell");
    for (const [name, items] of groups) {
      const title = document.createElement("div");
      title.textContent = name;
      title.style.cssText = "font: 12px sans-serif; margin: 4px 0 2px";
      el.appendChild(title);
      if (items[0].row < 0) {
        const row = document.createElement("div");
        for (const t of items) {
          const b = document.createElement("button");
          b.textContent = t.label;
          b.dataset.key = t.key;
          b.style.cssText = `margin: 1px; font-weight: ${t.selected ? "bold" : "normal"};`
            + `outline: ${t.selected ? "2px solid #000" : "none"}`;
          b.onclick = () => model.send({ click: t.key });
          row.appendChild(b);
        }
        el.appendChild(row);
        continue;
      }
      const rows = Math.max(...items.map((t) => t.row)) + 1;
      const cols = Math.max(...items.map((t) => t.col)) + 1;
      const svg = document.createElementNS(NS, "svg");
      svg.setAttribute("width", cols * size + 2);
      svg.setAttribute("height", rows * size + 2);
      for (const t of items) {
        const r = document.createElementNS(NS, "rect");
        r.setAttribute("x", t.col * size + 1);
        r.setAttribute("y", t.row * size + 1);
        r.setAttribute("width", size - 2);
        r.setAttribute("height", size - 2);
        r.setAttribute("fill", t.fill || "#ffffff");
        r.setAttribute("stroke", t.selected ? "#000000" : t.live ? "#2a9d2a" : "#bbbbbb");
        r.setAttribute("stroke-width", t.selected ? 3 : t.live ? 2 : 1);
        r.setAttribute("class", "cell");
        r.dataset.key = t.key;
        r.dataset.row = t.row;
        r.dataset.col = t.col;
        r.style.cursor = "pointer";
        r.onclick = () => model.send({ click: t.key });
        const tip = document.createElementNS(NS, "title");
        tip.textContent = t.key;
        r.appendChild(tip);
        svg.appendChild(r);
        if (t.label) {
          const x = document.createElementNS(NS, "text");
          x.setAttribute("x", t.col * size + size / 2);
          x.setAttribute("y", t.row * size + size / 2 + 4);
          x.setAttribute("text-anchor", "middle");
          x.setAttribute("font-size", 11);
          x.setAttribute("pointer-events", "none");
          x.textContent = t.label;
          svg.appendChild(x);
        }
      }
      el.appendChild(svg);
    }
  };
  model.on("change:targets", draw);
  draw();
}
export default { render };
"""


class ClickBoard(anywidget.AnyWidget):  # type: ignore[misc]
    """The model's grids and buttons, drawn in the browser; a click sends ``{"click": key}`` back."""

    _esm = _ESM
    targets: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    cell = traitlets.Int(22).tag(sync=True)

    def __init__(self, on_click: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._on_click = on_click
        self.on_msg(self._handle_message)

    def _handle_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        """A message from the browser: a click on the token ``content["click"]``."""
        key = content.get("click") if isinstance(content, dict) else None
        if isinstance(key, str):
            self._on_click(key)


class PlayView:
    """One game in a notebook cell, drawn from a :class:`PlayModel` and redrawn after every action; shows
    itself as its :attr:`widget` (a VBox)."""

    def __init__(self, model: PlayModel) -> None:
        self.model = model
        self.status = widgets.HTML()
        self.picture = widgets.HTML()
        self.board = ClickBoard(self.click, cell=18 if model.info.name == "blokus" else 24)
        self.choice_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.play_button = self._button("play the choice", self._play_exact)
        self.clear_button = self._button("clear the choice", lambda: self.model.clear())
        self.typed = widgets.Text(placeholder="or type a move", layout=widgets.Layout(width="220px"))
        self.type_button = self._button("play typed move", lambda: self.model.choose(self.typed.value))
        self.undo_button = self._button("undo", self.model.undo)
        self.seed = widgets.IntText(value=model.seed, description="seed", layout=widgets.Layout(width="160px"))
        self.new_button = self._button("new game", self._new_game)
        bot, budget = split_spec(next((s for s in model.specs if s != "human"), "random"))  # solo: no bot seat
        self.bot = widgets.Dropdown(options=model.bot_names(), value=bot, description="bots")
        self.budget = widgets.Text(value=str(budget or ""), placeholder="budget: 200 or 1.5s",
                                   layout=widgets.Layout(width="150px"))
        self.bot_button = self._button("set bots", self._set_bot)
        self.message = widgets.HTML()
        self.log = widgets.Textarea(disabled=True, layout=widgets.Layout(width="100%", height="90px"))
        self.widget = widgets.VBox([
            self.status, self.picture, self.board, self.choice_box,
            widgets.HBox([self.play_button, self.clear_button, self.typed, self.type_button]),
            widgets.HBox([self.undo_button, self.seed, self.new_button]),
            widgets.HBox([self.bot, self.budget, self.bot_button]),
            self.message, self.log,
        ])
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Displayed in a notebook as its widget."""
        return self.widget._repr_mimebundle_(**kwargs)

    def _button(self, text: str, action: Any) -> widgets.Button:
        button = widgets.Button(description=text)
        button.on_click(lambda _button: self._run(action))
        return button

    def _run(self, action: Any) -> None:
        """Call the model (the bots may think: the status says so meanwhile), then redraw."""
        self.status.value = "<b>thinking...</b>"
        try:
            action()
        finally:
            self.refresh()

    def click(self, key: str) -> None:
        """A click on the board's token ``key`` (what the browser's message calls)."""
        self._run(lambda: self.model.click(key))

    def choose(self, text: str) -> None:
        """A click on one of the listed candidate moves."""
        self._run(lambda: self.model.choose(text))

    def _play_exact(self) -> None:
        move = self.model.exact()
        if move is None:
            self.model.message = "the cells chosen are no whole move yet"
            return
        self.model.choose(move)

    def _new_game(self) -> None:
        """The seed typed, or the next one when the box still shows this game's."""
        self.model.new_game(None if self.seed.value == self.model.seed else self.seed.value)
        self.seed.value = self.model.seed

    def _set_bot(self) -> None:
        budget = self.budget.value.strip()
        self.model.set_bot(f"{self.bot.value}:{budget}" if budget else str(self.bot.value))

    def refresh(self) -> None:
        """Redraw everything from the model."""
        model = self.model
        self.status.value = f"<b>{model.info.title}</b>: {model.status_text()}"
        self.picture.value = model.picture()
        self.board.targets = model.targets()
        self.choice_box.children = [self._choice_button(text) for text in model.choices()]
        self.message.value = model.message
        self.log.value = "\n".join(model.log[-30:])
        self.play_button.disabled = model.exact() is None

    def _choice_button(self, text: str) -> widgets.Button:
        button = widgets.Button(description=text, layout=widgets.Layout(width="auto"))
        button.on_click(lambda _button: self.choose(text))
        return button


def play_widget(game: str, bots: str | list[str] = "random", seat: int = 1, seed: int = 0,
                players: int | None = None, **options: Any) -> PlayView:
    """An interactive board for ``game`` in a notebook cell: you play ``seat`` (counted from 1) against
    ``bots`` (one spec for every other seat, or one per seat), dealt from ``seed`` with the game's options."""
    return PlayView(PlayModel(game, bots=bots, seat=seat - 1, seed=seed, players=players, **options))
