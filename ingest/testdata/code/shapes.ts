import { x } from "./x";

/** Area of a circle. */
export function circleArea(r: number): number {
  return Math.PI * r * r;
}

export interface Shape {
  area(): number;
}

export const UNIT = 1;
