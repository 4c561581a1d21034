/**
 * The mouth interior for the live canvas, drawn by a fragment shader in a strip between the deformed inner
 * lips, in the renderer's layers and colours (container/src/animate/mouth-layers.ts): a dark throat that is
 * lip-tinted near the rim, upper teeth with per-tooth shading and darker gaps, a tongue low in wide
 * openings, edges as soft as the photo's and a little grain. Its opacity follows how far the lips have
 * parted beyond their rest gap, so a silent Avatar shows the photograph's own mouth, not a painted one.
 */
import type { FaceModel, MouthColors } from "@avatar-video/face-rig";

const VERT = `attribute vec2 a_pos; attribute vec2 a_uv; attribute vec2 a_open; uniform vec2 u_size;
varying vec2 v_uv; varying vec2 v_open;
void main() { v_uv = a_uv; v_open = a_open; gl_Position = vec4(a_pos.x / u_size.x * 2.0 - 1.0, 1.0 - a_pos.y / u_size.y * 2.0, 0.0, 1.0); }`;

const FRAG = `precision mediump float;
varying vec2 v_uv; varying vec2 v_open;
uniform vec3 u_teeth; uniform vec3 u_edge; uniform vec3 u_deep; uniform vec3 u_tongue;
uniform float u_soft; uniform float u_io;
float hash(vec2 p) { return fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453); }
void main() {
  float u = v_uv.x, v = v_uv.y, gap = max(v_open.y, 0.5);
  float e = u_soft / gap;
  // A smooth opening with rounded corners inside the inner-lip polygon (FaceMesh's loop is boxy near the
  // corners; what the curve leaves out shows the photo's lips, stretched), soft as the photo is blurred.
  float halfOpen = 0.5 * pow(sin(3.14159 * u), 0.45);
  float edge = smoothstep(0.5 - halfOpen, 0.5 - halfOpen + e, v) * smoothstep(0.5 - halfOpen, 0.5 - halfOpen + e, 1.0 - v);
  // Throat: the lips' dark inner tone at the rim, darker inside.
  float depth = min(v, 1.0 - v) * gap / (u_soft * 4.0);
  vec3 col = mix(u_edge, u_deep, smoothstep(0.0, 1.0, depth));
  // Tongue: low in the mouth, only on wide openings, its top curved and in shadow.
  float t = clamp((gap - 0.07 * u_io) / (0.2 * u_io), 0.0, 1.0) * 0.38;
  float top = 1.0 - t * (1.0 - 0.7 * pow(2.0 * u - 1.0, 2.0));
  float tongue = smoothstep(top - e, top + e, v) * step(0.001, t);
  col = mix(col, mix(u_deep, u_tongue, smoothstep(top, top + 0.25, v)), tongue);
  // Upper teeth under the upper lip: ten across, rounded bottoms, darker gaps, dimmer towards the corners.
  float f = fract(u * 10.0 + 0.5);
  float side = abs(f - 0.5) * 2.0;
  float vt = min(0.09 * u_io, 0.42 * gap) / gap * (1.0 - 0.15 * side * side);
  float teeth = 1.0 - smoothstep(vt - e, vt + e, v);
  float shade = (1.0 - 0.16 * side * side) * (1.0 - 0.3 * (1.0 - smoothstep(0.0, 0.07, min(f, 1.0 - f))));
  // Dimmer towards the corners and in the upper lip's shadow at the top.
  float topShadow = mix(0.55, 1.0, smoothstep(0.5 - halfOpen, 0.5 - halfOpen + 2.5 * e, v));
  shade *= mix(0.45, 1.0, smoothstep(0.0, 0.32, min(u, 1.0 - u))) * topShadow;
  col = mix(col, u_teeth * shade, teeth);
  col += (hash(gl_FragCoord.xy) - 0.5) * (4.0 / 255.0);
  gl_FragColor = vec4(col, edge * v_open.x);
}`;

const rgb = (c: [number, number, number]) => [c[0] / 255, c[1] / 255, c[2] / 255] as const;

export class MouthInteriorGl {
  private readonly program: WebGLProgram;
  private readonly buf: WebGLBuffer;
  private readonly data: Float32Array;
  private readonly restGap: number[];

  constructor(
    private readonly gl: WebGLRenderingContext,
    private readonly model: FaceModel,
    colors: MouthColors,
    compile: (vs: string, fs: string) => WebGLProgram,
  ) {
    this.program = compile(VERT, FRAG);
    const { upperInner } = model.mouth;
    this.data = new Float32Array(upperInner.length * 2 * 6);
    this.buf = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
    gl.bufferData(gl.ARRAY_BUFFER, this.data.byteLength, gl.DYNAMIC_DRAW);
    this.restGap = this.gaps(model.base);
    gl.useProgram(this.program);
    const set = (name: string, c: [number, number, number]) =>
      gl.uniform3f(gl.getUniformLocation(this.program, name), ...rgb(c));
    set("u_teeth", colors.teeth);
    set("u_edge", colors.cavityEdge);
    set("u_deep", colors.cavityDeep);
    set("u_tongue", colors.tongue);
    // Edge softness in px: a portrait's blur grows with its face (≈ 1.5–3 px at 100–200 px eye distance).
    gl.uniform1f(gl.getUniformLocation(this.program, "u_soft"), Math.max(1.5, model.interocular * 0.015));
    gl.uniform1f(gl.getUniformLocation(this.program, "u_io"), model.interocular);
  }

  /** Inner-lip gap per column (upper and lower inner lips have the same count and shared corners). */
  private gaps(xy: Float32Array): number[] {
    const { upperInner: up, lowerInner: lo } = this.model.mouth;
    return up.map((u, k) => Math.hypot(xy[lo[k]! * 2]! - xy[u * 2]!, xy[lo[k]! * 2 + 1]! - xy[u * 2 + 1]!));
  }

  /** Draws over the (warped) mouth opening; blends, so it must come before the face mesh. */
  draw(xy: Float32Array, width: number, height: number): void {
    const gl = this.gl;
    const { upperInner: up, lowerInner: lo } = this.model.mouth;
    const gaps = this.gaps(xy);
    // Fully painted once the lips are 3 % of the eye distance further apart than at rest.
    const ramp = this.model.interocular * 0.03;
    for (let k = 0; k < up.length; k++) {
      const alpha = Math.min(1, Math.max(0, (gaps[k]! - this.restGap[k]!) / ramp));
      const u = k / (up.length - 1);
      for (const [row, i] of [
        [0, up[k]!],
        [1, lo[k]!],
      ] as const) {
        this.data.set([xy[i * 2]!, xy[i * 2 + 1]!, u, row, alpha, gaps[k]!], (k * 2 + row) * 6);
      }
    }
    gl.useProgram(this.program);
    gl.uniform2f(gl.getUniformLocation(this.program, "u_size"), width, height);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.data);
    const locs = ["a_pos", "a_uv", "a_open"].map((name, n) => {
      const loc = gl.getAttribLocation(this.program, name);
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 24, n * 8);
      return loc;
    });
    gl.enable(gl.BLEND);
    // Alpha composes as "over": an opaque face stays opaque (the canvas may be transparent around the person).
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, up.length * 2);
    gl.disable(gl.BLEND);
    // WebGL checks every enabled array against the draw's vertex count: leave none pointing at this buffer.
    for (const loc of locs) gl.disableVertexAttribArray(loc);
  }
}
