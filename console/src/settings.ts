import { useEffect, useState } from "react";

// The console's settings from the service that serves it (/console/settings.json): the
// storefront's share an offer's credit leaves room for (STOREFRONT_SHARE_PERCENT).
export interface ConsoleSettings {
  storefrontSharePercent: number | undefined;
}

let loaded: Promise<ConsoleSettings> | undefined;

function load(): Promise<ConsoleSettings> {
  loaded ??= fetch(new URL("settings.json", new URL("/console/", window.location.origin)))
    .then((response) =>
      response.ok ? (response.json() as Promise<ConsoleSettings>) : { storefrontSharePercent: undefined },
    )
    .catch(() => ({ storefrontSharePercent: undefined }));
  return loaded;
}

export function useSettings(): ConsoleSettings {
  const [settings, setSettings] = useState<ConsoleSettings>({ storefrontSharePercent: undefined });
  useEffect(() => {
    let live = true;
    load().then((read) => live && setSettings(read));
    return () => {
      live = false;
    };
  }, []);
  return settings;
}
