import { stages } from '../../db/schema';
import { dictionaryRepo } from '../../lib/tenant-dictionary';

/** Stages are an ordered tenant dictionary (lib/tenant-dictionary). */
export const stageTable = dictionaryRepo(stages);

export const listStages = stageTable.list;
export const findStage = stageTable.find;
export const nameTaken = stageTable.nameTaken;
export const insertStage = stageTable.insert;
export const updateStage = stageTable.update;
export const deleteStage = stageTable.delete;
/** The stage of that name (the 成交 stage an approved order moves its customer to). */
export const findStageByName = stageTable.findByName;
