/**
 * The one WebGL program the live canvas draws with: textured triangles in canvas pixels (y down), plus the
 * texture setup its layers share.
 */
const VERT = `attribute vec2 a_pos; attribute vec2 a_uv; uniform vec2 u_size; varying vec2 v_uv;
void main() { v_uv = a_uv; gl_Position = vec4(a_pos.x / u_size.x * 2.0 - 1.0, 1.0 - a_pos.y / u_size.y * 2.0, 0.0, 1.0); }`;
const FRAG_TEX = `precision mediump float; uniform sampler2D u_tex; varying vec2 v_uv; void main() { gl_FragColor = texture2D(u_tex, v_uv); }`;

function compile(gl: WebGLRenderingContext, vs: string, fs: string): WebGLProgram {
  const p = gl.createProgram()!;
  for (const [type, src] of [
    [gl.VERTEX_SHADER, vs],
    [gl.FRAGMENT_SHADER, fs],
  ] as const) {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`program: ${gl.getProgramInfoLog(p)}`);
  return p;
}

export const texturedProgram = (gl: WebGLRenderingContext): WebGLProgram => compile(gl, VERT, FRAG_TEX);

/** Binds `program` to draw a canvas of width × height from vertex positions `pos` and texture coordinates `uv`. */
export function useTextured(
  gl: WebGLRenderingContext,
  program: WebGLProgram,
  width: number,
  height: number,
  pos: WebGLBuffer,
  uv: WebGLBuffer,
): void {
  gl.useProgram(program);
  gl.uniform2f(gl.getUniformLocation(program, "u_size"), width, height);
  attrib(gl, program, "a_pos", pos);
  attrib(gl, program, "a_uv", uv);
}

function attrib(gl: WebGLRenderingContext, program: WebGLProgram, name: string, buf: WebGLBuffer): void {
  const loc = gl.getAttribLocation(program, name);
  if (loc < 0) return;
  gl.bindBuffer(gl.ARRAY_BUFFER, buf);
  gl.enableVertexAttribArray(loc);
  gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0);
}

/** A new texture, bound, clamped at its edges, with `filter` for both directions. */
export function texture(gl: WebGLRenderingContext, filter: number): WebGLTexture {
  const t = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return t;
}
