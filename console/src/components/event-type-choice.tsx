import { useId } from "react";
import { WEBHOOK_EVENTS } from "../words";

// The event types an endpoint subscribes to: a checkbox each, in words with the type's name.
export function EventTypeChoice({ chosen, onChange }: { chosen: string[]; onChange: (types: string[]) => void }) {
  const id = useId();
  const all = chosen.length === WEBHOOK_EVENTS.length;
  return (
    <fieldset aria-describedby={`${id}-note`}>
      <legend>Events to send</legend>
      <p id={`${id}-note`} className="hint">
        Choose at least one.
      </p>
      <label className="choice">
        <input
          type="checkbox"
          checked={all}
          onChange={(e) => onChange(e.target.checked ? WEBHOOK_EVENTS.map((event) => event.type) : [])}
        />
        <span>All events</span>
      </label>
      {WEBHOOK_EVENTS.map((event) => (
        <label className="choice" key={event.type}>
          <input
            type="checkbox"
            checked={chosen.includes(event.type)}
            onChange={(e) => {
              const next = new Set(chosen);
              if (e.target.checked) next.add(event.type);
              else next.delete(event.type);
              // Always in the list's order, whatever order they were ticked in.
              onChange(WEBHOOK_EVENTS.map((known) => known.type).filter((type) => next.has(type)));
            }}
          />
          <span>
            {event.words} <code>{event.type}</code>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
