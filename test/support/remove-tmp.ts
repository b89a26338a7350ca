// A vitest setup file: after each test file, the folders its tests made with tmp() are removed.
import { afterAll } from "vitest";
import { removeTmp } from "../helpers.js";

afterAll(removeTmp);
