// The package ships no types: its one function parses Prometheus's text format into metric families.
declare module "parse-prometheus-text-format" {
  const parse: (text: string) => ReadonlyArray<unknown>
  export default parse
}
